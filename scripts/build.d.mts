// Types of scripts/build.mjs for the TypeScript that imports it (the test runner's and the start tests).
export function buildService(outdir: string, opts?: { cli?: boolean }): Promise<void>
export const SERVICE_SOURCES: string[]
export function serviceBuildIsFresh(outdir: string, sources?: string[]): boolean
/** Every non-ASCII UTF-16 unit as `\uXXXX` (the build's loader; the same program). */
export function escapeNonAscii(text: string): string
