#!/usr/bin/env node
// Builds the dashboard (dashboard/src → dashboard/dist) with esbuild: Preact + TSX, one entry with a
// lazily loaded chunk per area (ES module splitting), minified, content-hashed file names (served
// immutable), and index.html pointing at them. Skipped when the inputs have not changed since the last
// build (a hash over the sources and the lockfile in dist/build.json), so `npm start` pays for it once.
// The new build is written beside the old one and swapped in, so a running server never serves half.
import { build } from 'esbuild'
import { createHash } from 'node:crypto'
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const HERE = dirname(fileURLToPath(import.meta.url))
const SRC = join(HERE, 'src')
const OUT = join(HERE, 'dist')

const walk = (dir) => readdirSync(dir, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? walk(join(dir, e.name)) : [join(dir, e.name)]))

function inputHash() {
  const h = createHash('sha256')
  for (const f of [...walk(SRC), join(HERE, 'build.mjs'), join(HERE, '..', 'package-lock.json')].sort()) {
    if (f.endsWith('.d.ts')) continue
    h.update(relative(HERE, f)).update('\0').update(readFileSync(f)).update('\0')
  }
  return h.digest('hex')
}

export async function buildDashboard({ force = false } = {}) {
  const hash = inputHash()
  const stamp = join(OUT, 'build.json')
  if (!force && existsSync(stamp) && existsSync(join(OUT, 'index.html'))) {
    if (JSON.parse(readFileSync(stamp, 'utf8')).hash === hash) return { skipped: true }
  }
  const tmp = `${OUT}.tmp-${process.pid}-${Date.now()}`
  let outputs
  try {
    mkdirSync(join(tmp, 'assets'), { recursive: true })
    const result = await build({
      entryPoints: { app: join(SRC, 'main.tsx') },
      outdir: join(tmp, 'assets'),
      bundle: true,
      splitting: true,
      format: 'esm',
      platform: 'browser',
      target: ['chrome110', 'firefox110', 'safari16'],
      minify: true,
      sourcemap: 'linked',
      jsx: 'automatic',
      jsxImportSource: 'preact',
      entryNames: '[name]-[hash]',
      chunkNames: '[name]-[hash]',
      assetNames: '[name]-[hash]',
      metafile: true,
      legalComments: 'linked',
      logLevel: 'warning',
    })
    const rel = (path) => relative(join(tmp, 'assets'), path)
    // Each output with what it loads at once (static imports) and later (dynamic: the areas), for the bench's sizes.
    outputs = Object.entries(result.metafile.outputs).map(([path, o]) => ({
      file: rel(path),
      bytes: o.bytes,
      entry: o.entryPoint?.endsWith('main.tsx') ?? false,
      source: o.entryPoint ?? null,
      imports: o.imports.filter((i) => i.kind === 'import-statement').map((i) => rel(i.path)),
      dynamic: o.imports.filter((i) => i.kind === 'dynamic-import').map((i) => rel(i.path)),
    }))
    const [mainPath, main] = Object.entries(result.metafile.outputs).find(([, o]) => o.entryPoint?.endsWith('main.tsx'))
    const entry = { file: rel(mainPath) }
    const css = main.cssBundle ? { file: rel(main.cssBundle) } : null
    const html = [
      '<!doctype html>',
      '<html lang="en">',
      '<head>',
      '<meta charset="utf-8">',
      '<meta name="viewport" content="width=device-width, initial-scale=1">',
      '<title>Dashboard · Conversational Automation Service</title>',
      // Every stylesheet, the main one first: esbuild gives a lazily loaded area that imports CSS its own file,
      // which nothing would load on demand (they are a few KB in all).
      ...[css, ...outputs.filter((o) => o.file.endsWith('.css') && o.file !== css?.file).map((o) => ({ file: o.file }))]
        .filter(Boolean)
        .map((c) => `<link rel="stylesheet" href="/dashboard/assets/${c.file}">`),
      `<script type="module" src="/dashboard/assets/${entry.file}"></script>`,
      // The chunks the entry imports at once, fetched in parallel with it rather than after it is parsed.
      ...outputs.find((o) => o.file === entry.file).imports.map((f) => `<link rel="modulepreload" href="/dashboard/assets/${f}">`),
      '</head>',
      '<body>',
      '<div id="app"><p class="boot">Loading the dashboard…</p></div>',
      '<noscript>The dashboard needs JavaScript. Everything it does is also possible through the API.</noscript>',
      '</body>',
      '</html>',
    ]
      .filter(Boolean)
      .join('\n')
    writeFileSync(join(tmp, 'index.html'), html)
    // Compressed once here, served as they are (@fastify/static preCompressed) to browsers that accept them.
    for (const o of outputs.filter((x) => /\.(js|css)$/.test(x.file))) {
      const body = readFileSync(join(tmp, 'assets', o.file))
      writeFileSync(join(tmp, 'assets', `${o.file}.br`), brotliCompressSync(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }))
      writeFileSync(join(tmp, 'assets', `${o.file}.gz`), gzipSync(body, { level: 9 }))
    }
    writeFileSync(join(tmp, 'build.json'), JSON.stringify({ hash, built_at: new Date().toISOString(), outputs }, null, 2))
  } catch (err) {
    rmSync(tmp, { recursive: true, force: true })
    throw err
  }
  const old = `${OUT}.old-${process.pid}-${Date.now()}`
  if (existsSync(OUT)) renameSync(OUT, old)
  renameSync(tmp, OUT)
  rmSync(old, { recursive: true, force: true })
  return { skipped: false, outputs }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const r = await buildDashboard({ force: process.argv.includes('--force') })
  if (r.skipped) process.stdout.write('dashboard: up to date\n')
  else {
    const js = r.outputs.filter((o) => o.file.endsWith('.js')).reduce((n, o) => n + o.bytes, 0)
    process.stdout.write(`dashboard: built ${r.outputs.length} files (${(js / 1024).toFixed(0)} KiB of JavaScript in all)\n`)
  }
}
