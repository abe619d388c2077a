// The test files of a run, bundled before they run (scripts/test.mjs): each test process then loads a few
// files instead of ~1,000 modules through the TypeScript loader. Measured on 2 loaded cores: loading the test
// harness (test/helpers.ts) took ~2.7 s of CPU through tsx and ~0.5 s bundled; a run starts ~400 such
// processes. TEST_BUNDLE=0 runs the sources as they are.
//
// What keeps a bundled test the same test as its source:
// - `import.meta.url` (and `.dirname`, `.filename`) in our sources is written as the source file's own
//   location, so paths beside a file (fixtures, the ingest worker's TypeScript entry, the repository root)
//   are the ones the source sees; `import.meta.resolve` is left alone (it resolves packages, from inside
//   the repository either way).
// - Packages stay outside the bundle where they find their own files at run time or are only for tests
//   (devDependencies, and the service's own list in scripts/build.mjs); the production dependencies bundled
//   are the ones dist/main.js already bundles, but for the tracing SDK (tests read from the module cache
//   that it stays unloaded while tracing is off).
// - The processes still run with tsx, so what a test imports at run time by a computed path (a generated
//   SDK, the dashboard's catalogues) and worker threads started from TypeScript load as before.
import { build, context, transform } from 'esbuild'
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SERVICE_EXTERNAL } from './build.mjs'

// The compiler options that change emitted code (decorators, class fields) as the bundle reads them from tsconfig.json.
const TSCONFIG = JSON.stringify({ compilerOptions: JSON.parse(readFileSync('tsconfig.json', 'utf8')).compilerOptions ?? {} })
const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js' }

// `state.sources`: text that replaces a file's own, by absolute path (scripts/mutation.mjs builds its mutants so:
// the working tree is never written). A file's transform is kept while its text stays the same (rebuilds).
const sourceLocations = (state = { sources: new Map() }) => {
  const transformed = new Map()
  return {
    name: 'source-locations',
    setup(b) {
      b.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, async (args) => {
        if (args.path.includes(`${'/'}node_modules${'/'}`) || args.path.includes('\\node_modules\\')) return undefined
        const replaced = state.sources.get(args.path)
        const text = replaced ?? (await readFile(args.path, 'utf8'))
        if (!text.includes('import.meta.')) return replaced === undefined ? undefined : { contents: text, loader: LOADERS[extname(args.path)], resolveDir: dirname(args.path) }
        const kept = transformed.get(args.path)
        if (kept?.text === text) return kept.result
        // As a definition, not a text replacement: the expression is replaced, the words in a string or comment are not.
        const { code } = await transform(text, {
          loader: LOADERS[extname(args.path)],
          format: 'esm',
          target: 'node20',
          sourcemap: 'inline',
          sourcefile: args.path,
          tsconfigRaw: TSCONFIG,
          define: {
            'import.meta.url': JSON.stringify(pathToFileURL(args.path).href),
            'import.meta.dirname': JSON.stringify(dirname(args.path)),
            'import.meta.filename': JSON.stringify(args.path),
          },
        })
        const result = { contents: code, loader: 'js', resolveDir: dirname(args.path) }
        transformed.set(args.path, { text, result })
        return result
      })
    },
  }
}

function options(entries, outdir, plugin) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  // The tracing SDK too: tests hold it unloaded until tracing is configured, which they read from the module cache.
  const external = [...new Set([...SERVICE_EXTERNAL, ...Object.keys(pkg.devDependencies ?? {}), '@opentelemetry/*', 'tsx', 'esbuild'])]
  return {
    entryPoints: entries.map((e) => resolve(e)),
    outdir,
    outbase: process.cwd(),
    entryNames: '[dir]/[name]',
    chunkNames: 'chunks/[name]-[hash]',
    bundle: true,
    splitting: true,
    format: 'esm',
    platform: 'node',
    target: 'node20',
    sourcemap: 'linked',
    external,
    plugins: [plugin],
    banner: { js: "import { createRequire as __svcTestRequire } from 'node:module'; const require = __svcTestRequire(import.meta.url);" },
    logLevel: 'warning',
    metafile: true,
  }
}

/**
 * Bundles `entries` (test files, or the group files that import several) into `outdir`, which must be inside
 * the repository (packages left outside resolve from there). Answers each entry's bundle, by entry.
 */
export async function bundleTests(entries, outdir) {
  const result = await build(options(entries, outdir, sourceLocations()))
  const out = new Map()
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) out.set(resolve(meta.entryPoint), resolve(file))
  }
  return new Map(entries.map((e) => [e, out.get(resolve(e)) ?? join(outdir, relative(process.cwd(), e).replace(/\.[mc]?tsx?$/, '.js'))]))
}

/**
 * The same bundles, built again and again with other replacement sources (scripts/mutation.mjs: a mutant per
 * build). One esbuild context: a rebuild parses again only the files whose text changed (measured on the loaded
 * 2-core machine for 8 test entries: 5.7 s of esbuild's CPU for the first build, 2.0–3.8 s for each rebuild, most
 * of it linking and printing). `bundle(entry, name, sources)` bundles every entry with `sources` (absolute path →
 * text) in place of those files' text and writes `entry`'s bundle, with the chunks it loads, into `dir`/`name`
 * (`dir` inside the repository, `name` one folder); it answers the bundle's path and the repository files it was
 * made of. Rebuilds run one at a time. No source maps: nobody reads a mutant's stack, and they doubled a rebuild.
 */
export async function testRebundler(entries, dir) {
  const state = { sources: new Map() }
  // Never written to: each bundle's files are written under its own name, at the depth they were built for.
  const buildDir = resolve(dir, 'build')
  const ctx = await context({ ...options(entries, buildDir, sourceLocations(state)), write: false, sourcemap: false })
  let queue = Promise.resolve()
  async function rebuild(entry, name, sources) {
    const outdir = resolve(dir, name)
    state.sources = sources
    const result = await ctx.rebuild()
    const outputs = result.metafile.outputs
    const first = Object.keys(outputs).find((f) => outputs[f].entryPoint !== undefined && resolve(outputs[f].entryPoint) === resolve(entry))
    if (!first) throw new Error(`${entry} is not one of the rebundler's entries`)
    // The entry's output and every chunk it imports, at once or later.
    const wanted = new Set()
    const inputs = new Set()
    const visit = (file) => {
      if (wanted.has(file) || !outputs[file]) return
      wanted.add(file)
      for (const input of Object.keys(outputs[file].inputs)) inputs.add(input)
      for (const i of outputs[file].imports) if (!i.external) visit(i.path)
    }
    visit(first)
    for (const f of result.outputFiles) {
      const rel = relative(buildDir, f.path)
      const js = relative(process.cwd(), f.path).replace(/\.map$/, '')
      if (!wanted.has(js)) continue
      mkdirSync(dirname(join(outdir, rel)), { recursive: true })
      writeFileSync(join(outdir, rel), f.contents)
    }
    return { bundle: resolve(outdir, relative(buildDir, resolve(first))), inputs }
  }
  return {
    bundle(entry, name, sources = new Map()) {
      const run = queue.then(() => rebuild(entry, name, sources))
      queue = run.catch(() => {})
      return run
    },
    dispose: () => ctx.dispose(),
  }
}
