// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, it } from 'node:test'
import ts from 'typescript'

// The layers between the top-level folders, one way only (docs/architecture.md, "Layering"):
//
//   scripts/  bench/  test/           tools and tests: may import what is below them
//        src/     sdk/   dashboard/   the service, the clients, the dashboard: none imports another
//              lib/                   pure code both the service and the clients use (the SDK emitters)
//
// sdk/ and dashboard/ take the service's contract as data (spec/openapi.json) and start the service as a
// process when a test needs one; src/ imports nothing of them. Tests count as much as production code here:
// a test of sdk/ that imported src/ would be the circle again.
const ROOT = new URL('..', import.meta.url).pathname
const TOP = ['src', 'lib', 'sdk', 'dashboard', 'test', 'scripts', 'bench', 'bin'] as const

/** The generator's pure emitters: import only each other (no file system, no packages, nothing above them). */
const PURE = /^lib\/sdk-generator\/[a-z-]+\.ts$/
const CODE = /\.(ts|tsx|mts|mjs|js|cjs)$/
/** Test files and their support (fixtures are loaded only by the tests: src/kernel/module.ts). */
const isTest = (p: string) => /\.test\.tsx?$|\.testkit\.ts$|\.fixtures\.ts$/.test(p) || /^(test|sdk\/test-support|dashboard\/e2e)\//.test(p)

function files(dir: string, out: string[] = []): string[] {
  if (!existsSync(join(ROOT, dir))) return out
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const p = posix.join(dir, name)
    if (statSync(join(ROOT, p)).isDirectory()) files(p, out)
    else if (CODE.test(name) && !name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

interface Import {
  from: string
  spec: string
  /** The repository path a relative import names (.ts for .js); null for a package or a builtin. */
  target: string | null
  typeOnly: boolean
}

/** Every module a file names (import, export from, dynamic import, `typeof import`, require). */
function imports(path: string, text: string): Import[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: { spec: string; typeOnly: boolean }[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) found.push({ spec: node.moduleSpecifier.text, typeOnly: !!node.importClause?.isTypeOnly })
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly })
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) found.push({ spec: node.argument.literal.text, typeOnly: true })
    else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push({ spec: node.arguments[0].text, typeOnly: false })
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found.map(({ spec, typeOnly }) => ({ from: path, spec, typeOnly, target: spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), spec)).replace(/\.js$/, '.ts') : null }))
}

const top = (path: string) => path.split('/')[0]
/** A relative import that leaves its file's top-level folder. */
const crosses = (i: Import) => i.target !== null && top(i.target) !== top(i.from)

/**
 * Every import that leaves its top-level folder, from every code file. Only files that name another top-level
 * folder can (a relative path out of a folder spells the folder it goes to), so only those are parsed.
 */
const CROSSING: Import[] = TOP.flatMap((dir) =>
  files(dir).flatMap((p) => {
    const text = readFileSync(join(ROOT, p), 'utf8')
    const names = TOP.filter((t) => t !== dir && text.includes(`${t}/`))
    return names.length ? imports(p, text).filter(crosses) : []
  }),
)
const show = (list: Import[]) => list.map((i) => `${i.from} → ${i.target}`)

/** The circles of a graph (each once, from its smallest node). */
function circles(edges: Map<string, Set<string>>): string[][] {
  const found: string[][] = []
  const walk = (start: string, node: string, path: string[]) => {
    for (const next of edges.get(node) ?? []) {
      if (next === start) found.push([...path, start])
      else if (next > start && !path.includes(next)) walk(start, next, [...path, next])
    }
  }
  for (const start of [...edges.keys()].sort()) walk(start, start, [start])
  return found
}

describe('layering: one-way imports between the top-level folders', () => {
  it('reads every folder', () => {
    for (const f of ['src/modules/developer/sdk-generations/jobs/generate-sdk.job.ts', 'sdk/generator/generate.ts', 'scripts/live-server.ts'])
      assert.ok(
        CROSSING.some((i) => i.from === f),
        `${f} was read`,
      )
  })

  it('no import circle between top-level folders (test files and their support left out: they sit above all)', () => {
    const edges = new Map<string, Set<string>>()
    for (const i of CROSSING.filter((i) => !isTest(i.from) && !i.typeOnly)) edges.set(top(i.from), (edges.get(top(i.from)) ?? new Set()).add(top(i.target!)))
    assert.deepEqual(circles(edges), [], [...edges].map(([a, bs]) => `${a} → ${[...bs].sort().join(', ')}`).join('; '))
  })

  it('the service (src/) imports nothing of sdk/ or dashboard/, tests included; outside itself only lib/ (and, in tests, test/ and scripts/)', () => {
    const allowed = (i: Import) => top(i.target!) === 'lib' || (top(i.target!) === 'test' && (i.typeOnly || isTest(i.from))) || (top(i.target!) === 'scripts' && isTest(i.from))
    assert.deepEqual(show(CROSSING.filter((i) => top(i.from) === 'src' && !allowed(i))), [])
  })

  it('sdk/ and dashboard/ import neither the service nor each other, tests included: only lib/', () => {
    assert.deepEqual(show(CROSSING.filter((i) => (top(i.from) === 'sdk' || top(i.from) === 'dashboard') && top(i.target!) !== 'lib')), [])
  })

  it('lib/ is the bottom: it imports no other folder, and the SDK emitters only each other (no file system, no packages)', () => {
    assert.deepEqual(show(CROSSING.filter((i) => top(i.from) === 'lib')), [])
    const pure = files('lib/sdk-generator').filter((p) => PURE.test(p))
    assert.ok(pure.includes('lib/sdk-generator/languages.ts') && pure.includes('lib/sdk-generator/ir.ts'), pure.join(', '))
    const other = pure.flatMap((f) =>
      imports(f, readFileSync(join(ROOT, f), 'utf8'))
        .filter((i) => !i.target || !PURE.test(i.target))
        .map((i) => `${f} → ${i.spec}`),
    )
    assert.deepEqual(other, [])
  })

  it('the circle check sees a circle', () => {
    assert.deepEqual(
      circles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
          ['c', new Set(['a'])],
        ]),
      ),
      [['a', 'b', 'c', 'a']],
    )
    assert.deepEqual(
      circles(
        new Map([
          ['a', new Set(['b'])],
          ['b', new Set(['c'])],
        ]),
      ),
      [],
    )
  })
})
