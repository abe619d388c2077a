#!/usr/bin/env node
// Bundle the service into dist/main.js with esbuild (which tsx already brings). `npm start` runs it: no
// TypeScript loader thread in production (lower RSS), and one file instead of ~1,000 modules to resolve
// and link (kysely alone ships hundreds): cold start to the first answer measured 2.8–3.0 s as one file
// per source file, 1.3–1.5 s bundled (docs/performance.md). Left outside the bundle: the native SQLite
// binding, and the clients that are loaded only when configured (ioredis, openai).
import { build } from 'esbuild'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'

const BANNER = { js: "import { createRequire as __svcCreateRequire } from 'node:module'; const require = __svcCreateRequire(import.meta.url);" }

/**
 * The service's bundle into `outdir` (inside the repository, so that the packages left outside it still
 * resolve): main.js, its ingest worker thread, and with `cli` the operator's CLI (cli.js). The test runner
 * builds one for each run (scripts/test.mjs): the tests that start real processes then start the bundle, as
 * production does, instead of paying the TypeScript loader's ~3 s per process.
 */
export async function buildService(outdir, { cli = false } = {}) {
  const startedAt = Date.now()
  rmSync(outdir, { recursive: true, force: true })
  // Whitespace and syntax minified (names kept: stack traces stay readable), no comments, and a source map without the
  // sources' text: V8 holds the bundle's source for the process's life (twice its size, as one regex literal is not
  // Latin-1) and --enable-source-maps holds the parsed map; together ~30 MB of resident memory (docs/performance.md, finding 24).
  // The start commands leave --enable-source-maps out: decoding the map's mappings at the first stack trace took ~80 MB of
  // heap (finding 25); the map is kept beside the bundle for reading a trace offline.
  const common = {
    bundle: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: true,
    sourcesContent: false,
    minifyWhitespace: true,
    minifySyntax: true,
    legalComments: 'none',
    plugins: [asciiOnly],
    banner: BANNER,
    logLevel: 'warning',
  }
  // Loaded only when a file of that kind is parsed (dynamic import): kept out of the bundle so start-up and memory do not pay for them.
  // The SDK generator's pure emitters (lib/sdk-generator, the layer below src/) are bundled: no TypeScript loader at run time.
  const external = SERVICE_EXTERNAL
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
  // When the build began, not ended: a source saved while it ran makes the next `npm start` build again.
  writeFileSync(join(outdir, STAMP), JSON.stringify({ startedAt }) + '\n')
}

/**
 * esbuild escapes non-ASCII characters in strings and templates but not in regular expression literals
 * (evanw/esbuild#4205), and one such character (a dash or a bullet in a text-splitting pattern) makes V8 keep the
 * whole bundle's source as a two-byte string: ~10 MB more resident memory for the process's life. This loader
 * escapes them in the input instead (`\uXXXX`, one per UTF-16 unit: the same string, cooked template and pattern in
 * either regex mode); a pattern's `source` and a template's raw text show the escape. Columns in the source map shift on those few lines.
 */
const asciiOnly = {
  name: 'ascii-only',
  setup(b) {
    b.onLoad({ filter: /\.[cm]?[jt]s$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8')
      if (!/[^\x00-\x7f]/.test(text)) return undefined
      return { contents: escapeNonAscii(text), loader: /ts$/.test(args.path) ? 'ts' : 'js' }
    })
  },
}

/** Every non-ASCII UTF-16 unit as `\uXXXX`; an identity escape of one (`\–`) becomes the escape itself. */
export function escapeNonAscii(text) {
  return text.replace(/(\\*)([^\x00-\x7f])/g, (_, slashes, c) => {
    const escape = `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`
    return (slashes.length % 2 ? slashes.slice(1) : slashes) + escape
  })
}

/**
 * Packages the service's bundle leaves outside (loaded only when configured or when a file of that kind is parsed).
 * Bundled, a package loaded at first use still costs the start: V8 pre-parses the whole bundle and keeps its text.
 * The e-mail libraries (nodemailer, mailparser, smtp-server and what they bring: iconv-lite, libmime, html-to-text…,
 * ~1.4 MB) load when a channel first sends, parses or listens for mail; OpenTelemetry's SDK and exporters (~0.5 MB) when
 * tracing is configured. Its API stays inside (the service calls it on every request; loaded from node_modules it is ~50
 * small files to read at start): the SDK registers through its own copy into the API's global slot, which both copies
 * share when their versions agree (one package-lock).
 */
export const SERVICE_EXTERNAL = [
  'better-sqlite3',
  'pg-native',
  'ioredis',
  'openai',
  '@aws-sdk/client-s3',
  'unpdf',
  'mammoth',
  'linkedom',
  '@mozilla/readability',
  'marked',
  'jszip',
  'pdfkit',
  'nodemailer',
  'mailparser',
  'smtp-server',
  '@opentelemetry/core',
  '@opentelemetry/exporter-trace-otlp-http',
  '@opentelemetry/exporter-trace-otlp-proto',
  '@opentelemetry/resources',
  '@opentelemetry/sdk-trace-node',
]

/** What the bundle is made from: a change to any of them (by modification time) makes it stale. */
export const SERVICE_SOURCES = ['src', 'lib', 'scripts/build.mjs', 'package.json', 'package-lock.json']
const STAMP = 'build.json'

/** The newest modification time (ms) of the files under these paths; 0 when none exists. */
function newestChange(paths) {
  let newest = 0
  const visit = (path) => {
    const stat = statSync(path)
    if (stat.isDirectory()) {
      for (const name of readdirSync(path)) if (name !== 'node_modules') visit(join(path, name))
    } else newest = Math.max(newest, stat.mtimeMs)
  }
  for (const path of paths) if (existsSync(path)) visit(path)
  return newest
}

/**
 * Whether `outdir` holds a bundle at least as new as every source. A host that ships only the built `dist/`
 * (no sources: a read-only or trimmed checkout, an image) has nothing newer, so its bundle is used as it is.
 */
export function serviceBuildIsFresh(outdir, sources = SERVICE_SOURCES) {
  const stamp = join(outdir, STAMP)
  if (!existsSync(join(outdir, 'main.js')) || !existsSync(stamp)) return false
  const { startedAt } = JSON.parse(readFileSync(stamp, 'utf8'))
  return typeof startedAt === 'number' && newestChange(sources) <= startedAt
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  // SVC_BUILD_DIR: the service's bundle only, into another folder inside the repository (a test that boots its
  // own bundle while another test runs dist/).
  const outdir = process.env.SVC_BUILD_DIR ?? 'dist'
  // --if-stale (`npm start`): build only when a source is newer than the bundle, so a start writes nothing when
  // nothing changed (a read-only checkout with a built dist/ starts) and pays for no rebuild. `npm run build` always builds.
  const ifStale = process.argv.includes('--if-stale')
  if (ifStale && serviceBuildIsFresh(outdir)) process.stderr.write(`${outdir}/ is up to date with the sources: not rebuilt\n`)
  // --cli: the operator's CLI too (dist/cli.js), for images and hosts that run `node dist/cli.js migrate` without tsx.
  else await buildService(outdir, { cli: process.argv.includes('--cli') })
  // The dashboard (dashboard/build.mjs): skipped when its sources have not changed since the last build, and
  // with --if-stale when there are no sources to build it from (a host that ships the built dashboard only).
  if (!process.env.SVC_BUILD_DIR && !(ifStale && !existsSync('dashboard/src'))) {
    const { buildDashboard } = await import('../dashboard/build.mjs')
    await buildDashboard()
  }
}
