// typescript-eslint, type-aware, over every TypeScript and JavaScript file of the repository. `npm run lint` runs it
// with a cache (.tmp/eslintcache); scripts/test.mjs runs it before the suite, so a red lint makes CI red.
// The rules that matter most here are the promise rules: a promise nobody awaits loses its error (an unhandled
// rejection ends the process) and its ordering (a job "done" before its write). The recommended type-checked set
// is on, less the rules that would mean churn without catching bugs (listed below with the reason).
import js from '@eslint/js'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  {
    // Build output, and the SDKs in other languages (the generated Node SDK is linted: it ships).
    ignores: ['**/node_modules/**', '**/dist/**', '.tmp/**', 'data/**', 'coverage/**', 'sdk/python/**', 'sdk/php/**', 'sdk/ruby/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        // The nearest tsconfig.json of each file (the root one, dashboard/, sdk/node/), as the editor sees it.
        projectService: true,
        tsconfigRootDir: import.meta.dirname,
      },
    },
    linterOptions: { reportUnusedDisableDirectives: 'error' },
    rules: {
      '@typescript-eslint/no-floating-promises': [
        'error',
        {
          // node:test's test()/describe() return a promise the runner itself awaits; a subtest (t.test) is not in
          // this list and must be awaited.
          allowForKnownSafeCalls: [{ from: 'package', package: 'node:test', name: ['test', 'describe', 'it', 'suite'] }],
        },
      ],
      '@typescript-eslint/no-misused-promises': 'error',
      // The project's request and row shapes come from TypeBox and Kysely; `any` crosses a few JSON boundaries on
      // purpose (parsed bodies, test responses). Typing those would be churn over hundreds of files, not bug-finding.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Style-only findings (a redundant `as`, an `async` function implementing a promise-returning interface).
      '@typescript-eslint/no-unnecessary-type-assertion': 'off',
      '@typescript-eslint/require-await': 'off',
      // A method passed on its own (`const { t } = useI18n()`, `parts.register`): every such method here is an
      // arrow or does not use `this`; the rule cannot tell and would need 49 annotations.
      '@typescript-eslint/unbound-method': 'off',
      // `_name` marks a value left out on purpose (a destructured field dropped, an unused parameter of a signature).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
      // An AbortSignal's reason, a caught value passed on: rethrowing what was caught is not the bug this rule is for.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      '@typescript-eslint/only-throw-error': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // The code strips and refuses control characters on purpose (log lines, redirect URIs, extracted text).
      'no-control-regex': 'off',
      // A zero-width space inside a comment that shows what must not appear in generated doc comments.
      'no-irregular-whitespace': ['error', { skipComments: true }],
      // Off: findings here were values typed unknown/Json that are strings at run time (20 sites), `keyof T &
      // string` read as redundant, an initial value overwritten on every path, and `this` kept for a generator or
      // a nested function: style, not bugs, and each would be churn across modules.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/no-redundant-type-constituents': 'off',
      '@typescript-eslint/no-this-alias': 'off',
      'no-useless-assignment': 'off',
      // Empty interfaces are the registries other modules extend by declaration merging (Services, Tables, events).
      '@typescript-eslint/no-empty-object-type': ['error', { allowInterfaces: 'always' }],
    },
  },
  {
    // The dashboard's event handlers (onClick={async …}): Preact ignores what a handler returns, and the pages'
    // actions go through useAction (ui/hooks.ts), whose run() catches and shows the problem: it never rejects.
    // Promises inside a handler are still checked (no-floating-promises), and so is every non-JSX callback.
    files: ['dashboard/src/**/*.tsx'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  {
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: { ...tseslint.configs.disableTypeChecked.languageOptions, globals: { ...globals.node } },
  },
)
