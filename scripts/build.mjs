#!/usr/bin/env node
// Bundle the service into dist/main.js with esbuild (which tsx already brings). `npm start` runs it: no
// TypeScript loader thread in production (lower RSS), and one file instead of ~1,000 modules to resolve
// and link (kysely alone ships hundreds): cold start to the first answer measured 2.8–3.0 s as one file
// per source file, 1.3–1.5 s bundled (docs/performance.md). Left outside the bundle: the native SQLite
// binding, and the clients that are loaded only when configured (ioredis, openai).
import { build } from 'esbuild'
import { rmSync } from 'node:fs'
import { pathToFileURL } from 'node:url'

const BANNER = { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" }

/**
 * The service's bundle into `outdir` (inside the repository, so that the packages left outside it still
 * resolve): main.js, its ingest worker thread, and with `cli` the operator's CLI (cli.js). The test runner
 * builds one for each run (scripts/test.mjs): the tests that start real processes then start the bundle, as
 * production does, instead of paying the TypeScript loader's ~3 s per process.
 */
export async function buildService(outdir, { cli = false } = {}) {
  rmSync(outdir, { recursive: true, force: true })
  const common = { bundle: true, format: 'esm', platform: 'node', target: 'node20', sourcemap: true, banner: BANNER, logLevel: 'warning' }
  // Loaded only when a file of that kind is parsed (dynamic import): kept out of the bundle so start-up and memory do not pay for them.
  // The SDK generator's pure emitters (sdk/generator/languages.ts) are bundled: no TypeScript loader at run time.
  const external = ['better-sqlite3', 'pg-native', 'ioredis', 'openai', 'unpdf', 'mammoth', 'linkedom', '@mozilla/readability', 'marked', 'jszip', 'pdfkit']
  await Promise.all([
    build({ ...common, entryPoints: ['src/main.ts'], outfile: `${outdir}/main.js`, external }),
    // The knowledge ingest worker thread (src/modules/knowledge/ingest/ingest-pool.ts): an entry of its own beside
    // main.js, since a thread starts from a module and importing main.js would start the service.
    build({
      ...common,
      entryPoints: ['src/modules/knowledge/ingest/ingest.worker.ts'],
      outfile: `${outdir}/ingest.worker.js`,
      external: ['unpdf', 'mammoth', 'linkedom', '@mozilla/readability', 'marked', 'jszip'],
    }),
    ...(cli ? [build({ ...common, entryPoints: ['src/cli.ts'], outfile: `${outdir}/cli.js`, external })] : []),
  ])
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // SVC_BUILD_DIR: the service's bundle only, into another folder inside the repository (a test that boots its
  // own bundle while another test runs dist/).
  await buildService(process.env.SVC_BUILD_DIR ?? 'dist')
  // The dashboard (dashboard/build.mjs): skipped when its sources have not changed since the last build.
  if (!process.env.SVC_BUILD_DIR) {
    const { buildDashboard } = await import('../dashboard/build.mjs')
    await buildDashboard()
  }
}
