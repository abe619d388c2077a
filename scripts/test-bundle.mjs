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
import { build, transform } from 'esbuild'
import { readFileSync } from 'node:fs'
import { readFile } from 'node:fs/promises'
import { dirname, extname, join, relative, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { SERVICE_EXTERNAL } from './build.mjs'

// The compiler options that change emitted code (decorators, class fields) as the bundle reads them from tsconfig.json.
const TSCONFIG = JSON.stringify({ compilerOptions: JSON.parse(readFileSync('tsconfig.json', 'utf8')).compilerOptions ?? {} })
const LOADERS = { '.ts': 'ts', '.tsx': 'tsx', '.mts': 'ts', '.js': 'js', '.mjs': 'js' }

// `sources`: text that replaces a file's own, by absolute path (scripts/mutation.mjs builds its mutants so: the
// working tree is never written). Each path substituted is added to `substituted`.
const sourceLocations = (sources, substituted) => ({
  name: 'source-locations',
  setup(b) {
    b.onLoad({ filter: /\.(ts|tsx|mts|js|mjs)$/ }, async (args) => {
      if (args.path.includes(`${'/'}node_modules${'/'}`) || args.path.includes('\\node_modules\\')) return undefined
      const replaced = sources.get(args.path)
      if (replaced !== undefined) substituted.add(args.path)
      const text = replaced ?? (await readFile(args.path, 'utf8'))
      if (!text.includes('import.meta.')) return replaced === undefined ? undefined : { contents: text, loader: LOADERS[extname(args.path)], resolveDir: dirname(args.path) }
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
      return { contents: code, loader: 'js', resolveDir: dirname(args.path) }
    })
  },
})

/**
 * Bundles `entries` (test files, or the group files that import several) into `outdir`, which must be inside
 * the repository (packages left outside resolve from there). Answers each entry's bundle, by entry.
 * `opts.sources` (absolute path → text) bundles that text in place of the file's; `opts.inputs`, a Set, receives
 * the repository files the bundles were made of, and `opts.substituted` the paths of `sources` that were read.
 */
export async function bundleTests(entries, outdir, opts = {}) {
  const pkg = JSON.parse(readFileSync('package.json', 'utf8'))
  // The tracing SDK too: tests hold it unloaded until tracing is configured, which they read from the module cache.
  const external = [...new Set([...SERVICE_EXTERNAL, ...Object.keys(pkg.devDependencies ?? {}), '@opentelemetry/*', 'tsx', 'esbuild'])]
  const result = await build({
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
    plugins: [sourceLocations(opts.sources ?? new Map(), opts.substituted ?? new Set())],
    banner: { js: "import { createRequire as __svcTestRequire } from 'node:module'; const require = __svcTestRequire(import.meta.url);" },
    logLevel: 'warning',
    metafile: true,
  })
  for (const input of Object.keys(result.metafile.inputs)) opts.inputs?.add(input)
  const out = new Map()
  for (const [file, meta] of Object.entries(result.metafile.outputs)) {
    if (meta.entryPoint) out.set(resolve(meta.entryPoint), resolve(file))
  }
  return new Map(entries.map((e) => [e, out.get(resolve(e)) ?? join(outdir, relative(process.cwd(), e).replace(/\.[mc]?tsx?$/, '.js'))]))
}
