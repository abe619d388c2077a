// The generator's pure entry: every language's emitter, from the OpenAPI document as data to the files of
// each client. Pure functions of the document (no file system, no network, no import outside this folder):
// the one layer below both the service and the clients (docs/architecture.md, "Layering"). `POST
// /sdk-generations` (src/) runs them on the document it serves, bundled; `npm run sdk:generate`
// (sdk/generator/generate.ts) runs them on spec/openapi.json.
import { emitNode } from './emit-node.js'
import { emitPhp } from './emit-php.js'
import { emitPython } from './emit-python.js'
import { emitRuby } from './emit-ruby.js'
import { readModel, type ApiModel } from './ir.js'

export { readModel, type ApiModel }

export const LANGUAGES = { node: emitNode, python: emitPython, php: emitPhp, ruby: emitRuby } as const
export type Language = keyof typeof LANGUAGES

/** Every generated file of every client: `<language>/<path>` → content. */
export function generateAll(model: ApiModel): Map<string, string> {
  const out = new Map<string, string>()
  for (const [lang, emit] of Object.entries(LANGUAGES)) for (const [path, text] of emit(model)) out.set(`${lang}/${path}`, text)
  return out
}
