// Types of scripts/build.mjs for the TypeScript that imports it (the test runner's and the start tests).
export function buildService(outdir: string, opts?: { cli?: boolean }): Promise<void>
export const SERVICE_SOURCES: string[]
export function serviceBuildIsFresh(outdir: string, sources?: string[]): boolean
