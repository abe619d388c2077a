import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'

// The clients' generator and hand-written runtimes live in the repository's sdk/ folder, not under src/:
// the production bundle (scripts/build.mjs) holds src/ only. So SDK generation finds sdk/ at run time, next
// to src/ (sources) or dist/ (the bundle), and needs it deployed with the service (docs/developer-tools.md).

export const LANGUAGE_NAMES = ['node', 'python', 'php', 'ruby'] as const
export type SdkLanguage = (typeof LANGUAGE_NAMES)[number]

/** What the job uses of the generator; typed from its sources, loaded at run time. */
type GenerateModule = typeof import('../../../../sdk/generator/generate.js')
type IrModule = typeof import('../../../../sdk/generator/ir.js')
export interface Generator {
  LANGUAGES: GenerateModule['LANGUAGES']
  readModel: IrModule['readModel']
}

const MARKER = join('generator', 'generate.ts')

/** The sdk/ folder: the first ancestor of this file (or the working directory) holding sdk/generator/generate.ts. */
export function findSdkRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'sdk', MARKER))) return join(dir, 'sdk')
    if (dirname(dir) === dir) break
  }
  const cwd = join(process.cwd(), 'sdk')
  return existsSync(join(cwd, MARKER)) ? cwd : null
}

/**
 * Imports a TypeScript file of sdk/. Under tsx (development, tests) a plain import works and shares the
 * app's module instances; the bundle runs on plain Node, which cannot load .ts, so there tsx's API loads
 * it (tsx is a runtime dependency; scripts/build.mjs keeps it outside the bundle). The generator imports
 * the app's sources to build its document (load-document.ts): the first generation in a bundled process
 * loads them once, through tsx.
 */
async function importTs<T>(file: string): Promise<T> {
  const url = pathToFileURL(file).href
  try {
    return (await import(url)) as T
  } catch (err) {
    if ((err as { code?: string }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw err
    const { tsImport } = await import('tsx/esm/api')
    return (await tsImport(url, import.meta.url)) as T
  }
}

/** The generator of `root` (sdk/): the emitters of every language through generate.ts, and the model reader. */
export async function loadGenerator(root: string): Promise<Generator> {
  const generate = await importTs<GenerateModule>(join(root, 'generator', 'generate.ts'))
  const ir = await importTs<IrModule>(join(root, 'generator', 'ir.ts'))
  return { LANGUAGES: generate.LANGUAGES, readModel: ir.readModel }
}
