#!/usr/bin/env node
// Bundle the service into dist/main.js with esbuild (which tsx already brings). `npm start` runs it: no
// TypeScript loader thread in production (lower RSS), and one file instead of ~1,000 modules to resolve
// and link (kysely alone ships hundreds): cold start to the first answer measured 2.8–3.0 s as one file
// per source file, 1.3–1.5 s bundled (docs/performance.md). Left outside the bundle: the native SQLite
// binding, and the clients that are loaded only when configured (ioredis, openai).
import { build } from 'esbuild'
import { rmSync } from 'node:fs'

// SVC_BUILD_DIR: the service's bundle only, into another folder inside the repository so that the packages
// left outside it still resolve (a test that boots its own bundle while another test runs dist/).
const outdir = process.env.SVC_BUILD_DIR ?? 'dist'
rmSync(outdir, { recursive: true, force: true })
await build({
  entryPoints: ['src/main.ts'],
  outfile: `${outdir}/main.js`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  // Loaded only when a file of that kind is parsed (dynamic import): kept out of the bundle so start-up and memory do not pay for them.
  // The SDK generator's pure emitters (sdk/generator/languages.ts) are bundled: no TypeScript loader at run time.
  external: ['better-sqlite3', 'pg-native', 'ioredis', 'openai', 'unpdf', 'mammoth', 'linkedom', '@mozilla/readability', 'marked', 'jszip', 'pdfkit'],
  // CommonJS dependencies inside an ES module bundle still call require() for Node's built-ins.
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})

// The knowledge ingest worker thread (src/modules/knowledge/ingest/ingest-pool.ts): an entry of its own beside
// main.js, since a thread starts from a module and importing main.js would start the service.
await build({
  entryPoints: ['src/modules/knowledge/ingest/ingest.worker.ts'],
  outfile: `${outdir}/ingest.worker.js`,
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  external: ['unpdf', 'mammoth', 'linkedom', '@mozilla/readability', 'marked', 'jszip'],
  banner: { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" },
  logLevel: 'warning',
})

// The dashboard (dashboard/build.mjs): skipped when its sources have not changed since the last build.
if (!process.env.SVC_BUILD_DIR) {
  const { buildDashboard } = await import('../dashboard/build.mjs')
  await buildDashboard()
}
