import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
// The emitters are the layer below sdk/ and src/ (lib/sdk-generator, pure functions of the document); this file
// is the command around them: files in, files out.
import { generateAll, LANGUAGES, readModel } from '../../lib/sdk-generator/languages.js'

export { generateAll, LANGUAGES, type Language } from '../../lib/sdk-generator/languages.js'

/** sdk/ */
export const SDK_ROOT = join(dirname(fileURLToPath(import.meta.url)), '..')
/** The OpenAPI document the committed clients are generated from (written by scripts/write-openapi.ts). */
export const DOCUMENT_FILE = join(SDK_ROOT, '..', 'spec', 'openapi.json')

/** The generator's input: an OpenAPI document read from a file, as data. */
export const readDocument = (file: string = DOCUMENT_FILE): Record<string, any> => JSON.parse(readFileSync(file, 'utf8'))

/** The folders the generator owns whole: a file there that it no longer writes is removed (and is stale until then). */
export const GENERATED_DIRS: Record<keyof typeof LANGUAGES, string> = { node: 'src/generated', python: 'svc/_generated', php: 'src/Generated', ruby: 'lib/svc/generated' }

const walk = (dir: string): string[] => (existsSync(dir) ? readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)])) : [])

/** Files in the generated folders that the generator does not write (a namespace that went away), as `<language>/<path>`. */
export function orphans(files: Map<string, string>): string[] {
  return Object.entries(GENERATED_DIRS)
    .flatMap(([lang, dir]) => walk(join(SDK_ROOT, lang, dir)).map((f) => relative(SDK_ROOT, f).split('\\').join('/')))
    .filter((p) => !files.has(p) && !p.endsWith('__pycache__') && !p.includes('/__pycache__/'))
    .sort()
}

/** Generated files whose committed copy differs from what the generator makes now (the freshness test). */
export function stale(files: Map<string, string>): string[] {
  const changed = [...files].filter(([path, text]) => !existsSync(join(SDK_ROOT, path)) || readFileSync(join(SDK_ROOT, path), 'utf8') !== text).map(([p]) => p)
  return [...changed, ...orphans(files)]
}

// `npm run sdk:generate [-- <language>…]`: rewrites spec/openapi.json from the app (scripts/write-openapi.ts),
// then the dashboard's types (dashboard/generate-types.ts: its own command, since sdk/ and dashboard/ do not
// import each other), then the clients (this file, last: the languages given go to it). Alone: `tsx sdk/generator/generate.ts [--document <file>] [<language>…]`.
if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2)
  const at = args.indexOf('--document')
  const file = at >= 0 ? resolve(args.splice(at, 2)[1] ?? '') : DOCUMENT_FILE
  const only = args
  const unknown = only.filter((l) => !(l in LANGUAGES))
  if (unknown.length) throw new Error(`unknown language ${unknown.join(', ')}: one of ${Object.keys(LANGUAGES).join(', ')}`)
  const document = readDocument(file)
  const model = readModel(document)
  const files = new Map([...generateAll(model)].filter(([path]) => only.length === 0 || only.includes(path.split('/')[0])))
  for (const [path, text] of files) {
    mkdirSync(dirname(join(SDK_ROOT, path)), { recursive: true })
    writeFileSync(join(SDK_ROOT, path), text)
  }
  for (const path of orphans(generateAll(model))) if (only.length === 0 || only.includes(path.split('/')[0])) rmSync(join(SDK_ROOT, path))
  process.stdout.write(
    `generated ${files.size} files for ${(only.length ? only : Object.keys(LANGUAGES)).join(', ')} from ${relative(process.cwd(), file)} (API ${model.version}, ${model.operations.length} operations)\n`,
  )
}
