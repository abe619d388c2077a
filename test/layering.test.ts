import assert from 'node:assert/strict'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, posix } from 'node:path'
import { describe, it } from 'node:test'
import ts from 'typescript'

// The layering between the service (src/), the clients (sdk/) and the dashboard (dashboard/), one way only
// (docs/architecture.md, "Layering"): sdk/ and dashboard/ take the service's contract as data
// (spec/openapi.json) and never import src/; src/ imports nothing of them but the generator's pure emitters
// (sdk/generator/languages.ts and what it imports), which it bundles. Tests may cross: they start the real app.
const ROOT = new URL('..', import.meta.url).pathname

/** The generator's pure part: the only files of sdk/ that src/ may import. */
const PURE_GENERATOR = /^sdk\/generator\/(languages|ir|emit-[a-z]+)\.ts$/
const CODE = /\.(ts|tsx|mts|mjs|js|cjs)$/
/** Test files and test support: outside the production import graph, free to start the app. */
const isTest = (p: string) => /\.test\.tsx?$|\.test-support\.ts$|\.testkit\.ts$/.test(p) || p.startsWith('sdk/test-support/') || p.startsWith('dashboard/e2e/')

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

/** Every module a file names (import, export from, dynamic import, `typeof import`, require), relative ones as repository paths (.ts). */
function imports(path: string): { spec: string; target: string | null; typeOnly: boolean }[] {
  const file = ts.createSourceFile(path, readFileSync(join(ROOT, path), 'utf8'), ts.ScriptTarget.Latest, false, path.endsWith('x') ? ts.ScriptKind.TSX : ts.ScriptKind.TS)
  const found: { spec: string; typeOnly: boolean }[] = []
  const visit = (node: ts.Node): void => {
    if (ts.isImportDeclaration(node) && ts.isStringLiteral(node.moduleSpecifier)) found.push({ spec: node.moduleSpecifier.text, typeOnly: !!node.importClause?.isTypeOnly })
    else if (ts.isExportDeclaration(node) && node.moduleSpecifier && ts.isStringLiteral(node.moduleSpecifier)) found.push({ spec: node.moduleSpecifier.text, typeOnly: node.isTypeOnly })
    else if (ts.isImportTypeNode(node) && ts.isLiteralTypeNode(node.argument) && ts.isStringLiteral(node.argument.literal)) found.push({ spec: node.argument.literal.text, typeOnly: true })
    else if (ts.isCallExpression(node) && (node.expression.kind === ts.SyntaxKind.ImportKeyword || (ts.isIdentifier(node.expression) && node.expression.text === 'require')) && node.arguments[0] && ts.isStringLiteralLike(node.arguments[0]))
      found.push({ spec: node.arguments[0].text, typeOnly: false })
    ts.forEachChild(node, visit)
  }
  visit(file)
  return found.map(({ spec, typeOnly }) => ({ spec, typeOnly, target: spec.startsWith('.') ? posix.normalize(posix.join(posix.dirname(path), spec)).replace(/\.js$/, '.ts') : null }))
}

/** Production files; the service's only those naming a folder outside it (parsing all of src/ is the slow part). */
const production = (dir: string) => files(dir).filter((p) => !isTest(p) && (dir !== 'src' || /(sdk|dashboard|test|scripts|bench)\//.test(readFileSync(join(ROOT, p), 'utf8'))))
const top = (target: string) => target.split('/')[0]

describe('layering: src/ ⇄ sdk/ and dashboard/', () => {
  it('the service imports nothing outside src/ but the generator’s pure emitters (and types of its test support)', () => {
    const src = production('src')
    assert.ok(src.includes('src/modules/developer/sdk-generations/jobs/generate-sdk.job.ts'), 'src/ was read')
    // A type from test/ (a fixture typed by the test app) is erased when built; a value would put test support in the bundle.
    const allowed = (i: { target: string | null; typeOnly: boolean }) => !i.target || top(i.target) === 'src' || PURE_GENERATOR.test(i.target) || (top(i.target) === 'test' && i.typeOnly)
    const crossing = src.flatMap((f) => imports(f).filter((i) => !allowed(i)).map((i) => `${f} → ${i.target}`))
    assert.deepEqual(crossing, [])
  })

  it('the generator’s pure emitters import only each other: no file system, no packages, no src/', () => {
    const pure = files('sdk/generator').filter((p) => PURE_GENERATOR.test(p))
    assert.ok(pure.includes('sdk/generator/languages.ts') && pure.includes('sdk/generator/ir.ts'), pure.join(', '))
    const other = pure.flatMap((f) => imports(f).filter((i) => !i.target || !PURE_GENERATOR.test(i.target)).map((i) => `${f} → ${i.spec}`))
    assert.deepEqual(other, [])
  })

  it('sdk/ and dashboard/ never import the service (src/), its tests or its scripts', () => {
    const outside = [...production('sdk'), ...production('dashboard')]
    assert.ok(outside.includes('sdk/generator/generate.ts') && outside.includes('dashboard/generate-types.ts'), 'sdk/ and dashboard/ were read')
    const into = outside.flatMap((f) => imports(f).filter((i) => i.target && ['src', 'test', 'scripts', 'bench'].includes(top(i.target))).map((i) => `${f} → ${i.target}`))
    assert.deepEqual(into, [])
  })
})
