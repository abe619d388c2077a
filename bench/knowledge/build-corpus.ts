/**
 * Regenerates bench/knowledge/corpus.jsonl from the API documentation of Node.js that ships on disk as the
 * JSDoc of node_modules/@types/node (MIT, see README.md): one document per documented module, class,
 * interface, function, method or property, with its heading path. Run it after an @types/node upgrade:
 *
 *   node --import tsx bench/knowledge/build-corpus.ts
 *
 * The questions (questions.json) name documents by id, so the script reports any question whose relevant
 * id no longer exists.
 */
import { readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'

const ROOT = new URL('../../', import.meta.url).pathname
const TYPES = join(ROOT, 'node_modules/@types/node')
const OUT = new URL('./corpus.jsonl', import.meta.url)
// Generated protocol tables (inspector) and type plumbing say little a user would ask about.
const SKIP = new Set(['inspector.generated.d.ts', 'globals.typedarray.d.ts', 'buffer.buffer.d.ts', 'index.d.ts', 'sea.d.ts'])
/** Shorter texts are one-liners ("The file mode.") that only repeat their name. */
const MIN_CHARS = 100
const MAX_CHARS = 12_000

export interface CorpusDocument {
  id: string
  title: string
  heading_path: string[]
  text: string
  source: string
}

/** Markdown links → their text (the typings' URLs are mangled: "https://nodejs.org/docs/https://…"). */
const clean = (s: string) =>
  s
    .replace(/\[([^\]]+)\]\([^)]*\)/g, '$1')
    .replace(/\{@link\s+([^}|]+)(\|[^}]*)?\}/g, '$1')
    .replace(/\r/g, '')
    .trim()

function docText(node: ts.Node): string {
  const parts: string[] = []
  for (const doc of ts.getJSDocCommentsAndTags(node)) {
    if (!ts.isJSDoc(doc)) continue
    const comment = ts.getTextOfJSDocComment(doc.comment)
    if (comment) parts.push(clean(comment))
    for (const tag of doc.tags ?? []) {
      const name = tag.tagName.text
      const text = clean(ts.getTextOfJSDocComment(tag.comment) ?? '')
      if (name === 'param' && ts.isJSDocParameterTag(tag) && text) parts.push(`Parameter \`${tag.name.getText()}\`: ${text.replace(/^-\s*/, '')}`)
      else if ((name === 'return' || name === 'returns') && text) parts.push(`Returns: ${text}`)
      else if (name === 'since' && text) parts.push(`Added in: ${text}`)
      else if (name === 'deprecated') parts.push(`Deprecated${text ? `: ${text}` : '.'}`)
      else if (name === 'experimental') parts.push('Stability: experimental.')
    }
  }
  return parts.join('\n\n').trim()
}

const nameOf = (node: ts.Node): string | null => {
  const n = (node as { name?: ts.Node }).name
  if (!n) return ts.isConstructorDeclaration(node) ? 'constructor' : null
  if (ts.isIdentifier(n) || ts.isStringLiteral(n) || ts.isPrivateIdentifier(n)) return n.text
  return null
}

/**
 * The path a reader knows: `declare global { namespace NodeJS { interface Process … } }` inside "process"
 * is `process.stderr`, not `process.globals.NodeJS.Process.stderr`; `assert.assert.ok` is `assert.ok`,
 * `path.PlatformPath.join` is `path.join`, `stream.internal.Readable` is `stream.Readable`.
 */
const CONTAINERS = new Set(['globals', 'NodeJS', 'internal', 'PlatformPath'])
const RENAME = new Map([['BufferConstructor', 'Buffer']])

function tidy(raw: string[]): string[] | null {
  // The promisified twin of a callback function repeats its documentation.
  if (raw.includes('__promisify__')) return null
  const p = raw.filter((s, i) => !(i > 0 && CONTAINERS.has(s))).map((s) => RENAME.get(s) ?? s)
  return p.filter((s, i) => i === 0 || !(s === p[i - 1] || (i === 1 && s.toLowerCase() === p[0] && /^[A-Z]/.test(s) && ['Process', 'Stream'].includes(s))))
}

function collect(file: string): CorpusDocument[] {
  const source = ts.createSourceFile(file, readFileSync(join(TYPES, file), 'utf8'), ts.ScriptTarget.Latest, true)
  const byId = new Map<string, CorpusDocument>()
  const add = (raw: string[], node: ts.Node, kind: 'module' | 'class' | 'function' | 'member') => {
    const text = docText(node)
    if (text.length < MIN_CHARS) return
    const path = tidy(raw)
    if (!path || path.length === 0) return
    const id = path.join('.')
    const prev = byId.get(id)
    // Overloads repeat one comment, or document each form: keep every distinct text once.
    if (prev) {
      if (!prev.text.includes(text.slice(0, 200)) && prev.text.length + text.length < MAX_CHARS) prev.text += `\n\n${text}`
      return
    }
    const last = path[path.length - 1]
    const title = kind === 'module' ? `node:${last}` : kind === 'function' || (kind === 'member' && ts.isMethodSignature(node)) || ts.isMethodDeclaration(node) ? `${id}()` : id
    byId.set(id, { id, title, heading_path: path, text: text.slice(0, MAX_CHARS), source: `@types/node/${file}` })
  }
  const visit = (node: ts.Node, path: string[]) => {
    if (ts.isModuleDeclaration(node)) {
      const raw = nameOf(node)
      if (!raw) return
      // `declare module "node:fs"` repeats `declare module "fs"`; `global` holds the globals.
      if (raw.startsWith('node:')) return
      const name = raw === 'global' ? 'globals' : raw
      const p = ts.isStringLiteral(node.name) ? [name] : [...path, name]
      add(p, node, 'module')
      if (node.body && ts.isModuleBlock(node.body)) node.body.statements.forEach((s) => visit(s, p))
      return
    }
    if (ts.isClassDeclaration(node) || ts.isInterfaceDeclaration(node)) {
      const name = nameOf(node)
      if (!name) return
      const p = [...(path.length ? path : ['globals']), name]
      add(p, node, 'class')
      node.members.forEach((m: ts.Node) => visit(m, p))
      return
    }
    if (ts.isFunctionDeclaration(node)) {
      const name = nameOf(node)
      if (name) add([...(path.length ? path : ['globals']), name], node, 'function')
      return
    }
    if (ts.isMethodDeclaration(node) || ts.isMethodSignature(node) || ts.isPropertyDeclaration(node) || ts.isPropertySignature(node) || ts.isConstructorDeclaration(node)) {
      const name = nameOf(node)
      if (name) add([...path, name], node, 'member')
      return
    }
    if (ts.isVariableStatement(node)) {
      for (const d of node.declarationList.declarations) {
        if (ts.isIdentifier(d.name)) {
          const text = docText(node)
          if (text.length >= MIN_CHARS) add([...path, d.name.text], node, 'member')
        }
      }
      return
    }
    if (path.length === 0) ts.forEachChild(node, (c) => visit(c, path))
  }
  ts.forEachChild(source, (c) => visit(c, []))
  return [...byId.values()]
}

function filesOf(dir: string, prefix = ''): string[] {
  return readdirSync(join(TYPES, dir), { withFileTypes: true }).flatMap((e) => {
    if (e.isDirectory()) return ['compatibility', 'ts5.6'].includes(e.name) ? [] : filesOf(join(dir, e.name), `${prefix}${e.name}/`)
    return e.name.endsWith('.d.ts') && !SKIP.has(e.name) ? [`${prefix}${e.name}`] : []
  })
}

const docs = filesOf('.').sort().flatMap(collect)
const seen = new Set<string>()
const texts = new Set<string>()
// Some options share one comment word for word (http.ServerOptions.keepAlive, net.ServerOpts.keepAlive):
// the service would see the same upload twice (same checksum), so only the first stays.
const unique = docs.filter((d) => (seen.has(d.id) || texts.has(d.text) ? false : (seen.add(d.id), texts.add(d.text), true)))
writeFileSync(OUT, unique.map((d) => JSON.stringify(d)).join('\n') + '\n')
const bytes = unique.reduce((n, d) => n + Buffer.byteLength(JSON.stringify(d)) + 1, 0)
process.stdout.write(`${unique.length} documents, ${(bytes / 2 ** 20).toFixed(2)} MiB → ${OUT.pathname}\n`)

try {
  const questions = JSON.parse(readFileSync(new URL('./questions.json', import.meta.url), 'utf8')) as { id: string; relevant: string[] }[]
  const missing = questions.flatMap((q) => q.relevant.filter((r) => !seen.has(r)).map((r) => `${q.id}: ${r}`))
  if (missing.length) process.stdout.write(`relevant ids missing from the corpus:\n  ${missing.join('\n  ')}\n`)
} catch {
  /* no questions yet */
}
