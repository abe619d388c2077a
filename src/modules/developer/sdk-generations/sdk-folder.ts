import { existsSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'

// The clients' hand-written runtimes (sdk/<language>/) are files that go into each archive, read at run time
// from the repository's sdk/ folder next to src/ (sources) or dist/ (the bundle); they need deploying with the
// service (docs/developer-tools.md). They are read as files, never imported: the generator's code is its pure
// emitters in lib/sdk-generator (bundled by scripts/build.mjs), and src/ imports nothing of sdk/.

export const LANGUAGE_NAMES = ['node', 'python', 'php', 'ruby'] as const
export type SdkLanguage = (typeof LANGUAGE_NAMES)[number]

const hasRuntimes = (sdk: string) => LANGUAGE_NAMES.every((l) => existsSync(join(sdk, l)))

/** The sdk/ folder: the first ancestor of this file (or the working directory) holding every language's runtime. */
export function findSdkRoot(from: string = dirname(fileURLToPath(import.meta.url))): string | null {
  for (let dir = from; ; dir = dirname(dir)) {
    if (hasRuntimes(join(dir, 'sdk'))) return join(dir, 'sdk')
    if (dirname(dir) === dir) break
  }
  const cwd = join(process.cwd(), 'sdk')
  return hasRuntimes(cwd) ? cwd : null
}
