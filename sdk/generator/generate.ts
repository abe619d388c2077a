import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { emitNode } from './emit-node.js'
import { emitPhp } from './emit-php.js'
import { emitPython } from './emit-python.js'
import { emitRuby } from './emit-ruby.js'
import { readModel, type ApiModel } from './ir.js'
import { loadDocument } from './load-document.js'

/** sdk/ */
export const SDK_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
export const LANGUAGES = { node: emitNode, python: emitPython, php: emitPhp, ruby: emitRuby } as const
export type Language = keyof typeof LANGUAGES

/** The folders the generator owns whole: a file there that it no longer writes is removed (and is stale until then). */
export const GENERATED_DIRS: Record<Language, string> = { node: 'src/generated', python: 'svc/_generated', php: 'src/Generated', ruby: 'lib/svc/generated' }

const walk = (dir: string): string[] =>
  existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])) : []

/** Files in the generated folders that the generator does not write (a namespace that went away), as `<language>/<path>`. */
export function orphans(files: Map<string, string>): string[] {
  return Object.entries(GENERATED_DIRS)
    .flatMap(([lang, dir]) => walk(join(SDK_ROOT, lang, dir)).map((f) => relative(SDK_ROOT, f).split('\\').join('/')))
    .filter((p) => !files.has(p) && !p.endsWith('__pycache__') && !p.includes('/__pycache__/'))
    .sort()
}

/** Every generated file of every client: `<language>/<path>` → content. */
export function generateAll(model: ApiModel): Map<string, string> {
  const out = new Map<string, string>()
  for (const [lang, emit] of Object.entries(LANGUAGES)) for (const [path, text] of emit(model)) out.set(`${lang}/${path}`, text)
  return out
}

/** Generated files whose committed copy differs from what the generator makes now (the freshness test). */
export function stale(files: Map<string, string>): string[] {
  const changed = [...files].filter(([path, text]) => !existsSync(join(SDK_ROOT, path)) || readFileSync(join(SDK_ROOT, path), 'utf8') !== text).map(([p]) => p)
  return [...changed, ...orphans(files)]
}

// `npm run sdk:generate [-- <language>…]`: regenerate the clients from the document the server serves now.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const only = process.argv.slice(2)
  const unknown = only.filter((l) => !(l in LANGUAGES))
  if (unknown.length) throw new Error(`unknown language ${unknown.join(', ')}: one of ${Object.keys(LANGUAGES).join(', ')}`)
  const document = await loadDocument()
  const model = readModel(document)
  const files = new Map([...generateAll(model)].filter(([path]) => only.length === 0 || only.includes(path.split('/')[0])))
  for (const [path, text] of files) {
    mkdirSync(dirname(join(SDK_ROOT, path)), { recursive: true })
    writeFileSync(join(SDK_ROOT, path), text)
  }
  for (const path of orphans(generateAll(model))) if (only.length === 0 || only.includes(path.split('/')[0])) rmSync(join(SDK_ROOT, path))
  // The dashboard's API types come from the same document: one command keeps every consumer current.
  if (only.length === 0) {
    const { dashboardTypes, TYPES_FILE } = await import('../../dashboard/generate-types.js')
    writeFileSync(TYPES_FILE, await dashboardTypes(document))
  }
  process.stdout.write(`generated ${files.size} files for ${(only.length ? only : Object.keys(LANGUAGES)).join(', ')} from API ${model.version} (${model.operations.length} operations)\n`)
}
