// Bundles the bench harness (bench/run.ts) and the bare baseline server (bench/bare-server.ts) into plain ESM files
// for a machine with node but no tsx: OUT/bench/run.mjs (so that its `..` is the root, as bench/run.ts's is) and
// OUT/prebuilt/bare-server.mjs (BENCH_PREBUILT=OUT/prebuilt, bench/lib.ts). Usage: node bundle-bench.mjs OUT (from the repo root).
import { build } from 'esbuild'
import { readFile } from 'node:fs/promises'
import { SERVICE_EXTERNAL } from '../../scripts/build.mjs'

const out = process.argv[2]
// Packages the small-table scenarios never load but that modules imported by run.ts import statically
// (the dashboard bench's build step, the knowledge tooling): empty stand-ins, so that the bundle stays small.
const STUBS = ['esbuild', 'typescript', 'playwright-core', 'playwright']
const stubs = {
  name: 'stubs',
  setup(b) {
    b.onResolve({ filter: new RegExp(`^(${STUBS.join('|')})$`) }, (a) => ({ path: a.path, namespace: 'stub' }))
    b.onLoad({ filter: /.*/, namespace: 'stub' }, (a) => ({ contents: `module.exports = {} // stub for ${a.path}`, loader: 'js' }))
  },
}
// In one bundle every module's import.meta.url is the bundle's, which is process.argv[1]: the "run me directly" guards of the
// modules run.ts imports (bench/knowledge/evaluate.ts, bench/live/scenarios.ts, dashboard/build.mjs…) would all fire. On the
// lines that compare import.meta.url with process.argv[1], outside node_modules and the entry, process.argv[1] becomes a
// string no module URL equals.
const notMain = {
  name: 'not-main',
  setup(b) {
    b.onLoad({ filter: /\.(ts|mjs|js)$/ }, async (a) => {
      if (a.path.includes('/node_modules/') || a.path.endsWith('/bench/run.ts') || a.path.endsWith('/bench/bare-server.ts')) return undefined
      const text = await readFile(a.path, 'utf8')
      let n = 0
      const out = text
        .split('\n')
        .map((line) => (line.includes('import.meta.url') && line.includes('process.argv[1]') ? (n++, line.replaceAll('process.argv[1]', "'\\0bundled'")) : line))
        .join('\n')
      if (!n) return undefined
      guards.push(a.path.slice(process.cwd().length + 1))
      return { contents: out, loader: a.path.endsWith('.ts') ? 'ts' : 'js' }
    })
  },
}
const guards = []
const common = {
  bundle: true,
  format: 'esm',
  platform: 'node',
  target: 'node20',
  minifyWhitespace: true,
  minifySyntax: true,
  legalComments: 'none',
  logLevel: 'warning',
  banner: { js: "import { createRequire as __benchCreateRequire } from 'node:module'; const require = __benchCreateRequire(import.meta.url);" },
  plugins: [stubs, notMain],
  external: [...SERVICE_EXTERNAL, 'pg-native'],
  metafile: true,
}
const a = await build({ ...common, entryPoints: ['bench/run.ts'], outfile: `${out}/bench/run.mjs` })
const b = await build({ ...common, entryPoints: ['bench/bare-server.ts'], outfile: `${out}/prebuilt/bare-server.mjs` })
console.log(`main guards neutralised: ${guards.join(', ')}`)
for (const m of [a.metafile, b.metafile]) for (const [f, o] of Object.entries(m.outputs)) console.log(`${f}: ${(o.bytes / 1e6).toFixed(1)} MB`)
