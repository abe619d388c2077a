import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, it } from 'node:test'
import ts from 'typescript'

// Test support never ships: what the service's processes can load (the bundle's entries, followed through
// every static import and every literal dynamic import) holds no test, no test support and nothing of test/.
// A file reached only as a type (`import type`, `typeof import`) is left out: the compiler erases it.
const ROOT = new URL('..', import.meta.url).pathname

/** The bundle's entries, read from scripts/build.mjs so that a new one is walked too. */
const ENTRIES = [...readFileSync(join(ROOT, 'scripts/build.mjs'), 'utf8').matchAll(/entryPoints:\s*\[([^\]]*)\]/g)].flatMap((m) => [...m[1].matchAll(/'([^']+)'/g)].map((s) => s[1]))

/** Test files and test support: never to be loaded by the service (fixtures are loaded by the tests only: test/fixtures.ts). */
const TEST_ONLY = (p: string) => /\.test\.tsx?$|\.test-support\.ts$|\.testkit\.ts$|\.fixtures\.ts$/.test(p) || p.startsWith('test/')

/** Every file under a folder (node_modules, dist and dot-folders left out). */
function tree(dir: string, out: string[] = []): string[] {
  if (!existsSync(join(ROOT, dir))) return out
  for (const name of readdirSync(join(ROOT, dir))) {
    if (name === 'node_modules' || name === 'dist' || name.startsWith('.')) continue
    const p = posix.join(dir, name)
    if (statSync(join(ROOT, p)).isDirectory()) tree(p, out)
    else out.push(p)
  }
  return out
}

/** The runtime imports of a file: static imports and re-exports that are not type-only, and literal `import()`/`require()`. */
function runtimeImports(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.Latest, false, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: string[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) {
      const clause = node.importClause
      const named = clause?.namedBindings && ts.isNamedImports(clause.namedBindings) ? clause.namedBindings.elements : null
      const typeOnly = !!clause && (clause.isTypeOnly || (!clause.name && !!named && named.length > 0 && named.every((e) => e.isTypeOnly)))
      if (!typeOnly) found.push(node.moduleSpecifier.text)
    } else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) {
      const named = node.exportClause && ts.isNamedExports(node.exportClause) ? node.exportClause.elements : null
      if (!node.isTypeOnly && !(named && named.length > 0 && named.every((e) => e.isTypeOnly))) found.push(node.moduleSpecifier.text)
    } else if (
      ts.isCallExpression(node) &&
      (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) &&
      node.arguments[0] &&
      ts.isStringLiteralLike(node.arguments[0])
    )
      found.push(node.arguments[0].text)
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found
}

/** The repository file a relative specifier names (`.js` written for `.ts`); null for a package or a builtin. */
function resolve(from: string, spec: string, exists: (p: string) => boolean): string | null {
  if (!spec.startsWith('.')) return null
  const base = posix.normalize(posix.join(posix.dirname(from), spec))
  const candidates = [base, base.replace(/\.js$/, '.ts'), base.replace(/\.js$/, '.tsx'), base.replace(/\.mjs$/, '.mts'), `${base}.ts`, `${base}/index.ts`]
  const hit = candidates.find((c) => /\.(ts|tsx|mts|mjs|js|cjs|json)$/.test(c) && exists(c))
  assert.ok(hit, `${from} imports ${spec}: no such file`)
  return hit
}

/** Every file reachable from the entries, each with the chain that first reached it (for the message). */
function reach(entries: string[], files?: Record<string, string>): Map<string, string[]> {
  const read = (p: string) => files?.[p] ?? readFileSync(join(ROOT, p), 'utf8')
  const exists = (p: string) => (files ? p in files : existsSync(join(ROOT, p)))
  const chains = new Map<string, string[]>(entries.map((e) => [e, [e]]))
  const queue = [...entries]
  while (queue.length) {
    const at = queue.shift()!
    if (/\.json$/.test(at)) continue
    for (const spec of runtimeImports(at, read(at))) {
      const next = resolve(at, spec, exists)
      if (next === null || chains.has(next)) continue
      chains.set(next, [...chains.get(at)!, next])
      queue.push(next)
    }
  }
  return chains
}

describe('test support stays out of the production graph', () => {
  const graph = reach(ENTRIES)

  it('walks every entry of the bundle, the worker thread included, into the modules and lib/', () => {
    for (const entry of ['src/main.ts', 'src/cli.ts', 'src/modules/knowledge/ingest/ingest.worker.ts']) assert.ok(ENTRIES.includes(entry), entry)
    for (const file of ['src/modules/index.ts', 'src/modules/voice/voice.module.ts', 'src/kernel/http/server.ts', 'lib/sdk-generator/languages.ts']) assert.ok(graph.has(file), `${file} is reached`)
    assert.ok(graph.size > 300, `${graph.size} files reached`)
  })

  it('reaches no test, no test support (*.test-support.ts, *.testkit.ts), no fixtures and nothing of test/', () => {
    const leaks = [...graph].filter(([file]) => TEST_ONLY(file)).map(([, chain]) => chain.join(' → '))
    assert.deepEqual(leaks, [])
  })

  it('test support has one name: `*.testkit.ts` beside its tests or a file under test/, never `*.test-support.ts`', () => {
    const files = ['src', 'lib', 'test', 'sdk', 'dashboard', 'scripts', 'bench'].flatMap((d) => tree(d))
    assert.ok(files.includes('src/modules/voice/carriers/twilio.testkit.ts'), 'the tree was read')
    assert.deepEqual(
      files.filter((p) => /\.test-support\.[cm]?[jt]sx?$/.test(p)),
      [],
    )
  })

  it('test/fixtures.ts imports every module fixtures file (the tests load them; the modules no longer name them)', () => {
    const imported = runtimeImports('test/fixtures.ts', readFileSync(join(ROOT, 'test/fixtures.ts'), 'utf8')).map((spec) => resolve('test/fixtures.ts', spec, (p) => existsSync(join(ROOT, p))))
    const files = tree('src/modules').filter((p) => p.endsWith('.fixtures.ts'))
    assert.ok(files.length >= 15, files.join(', '))
    assert.deepEqual(
      files.filter((p) => !imported.includes(p)),
      [],
      'add them to test/fixtures.ts',
    )
  })

  it('sees a leak through a literal dynamic import, and not through a type-only import', () => {
    const files: Record<string, string> = {
      'src/a.ts': "import type { T } from './t.testkit.js'\nimport { type U } from './u.testkit.js'\nexport const a = () => import('./b.js')",
      'src/b.ts': "export { x } from './c.test-support.js'",
      'src/c.test-support.ts': 'export const x = 1',
    }
    const seen = reach(['src/a.ts'], files)
    assert.deepEqual([...seen.keys()], ['src/a.ts', 'src/b.ts', 'src/c.test-support.ts'])
  })
})
