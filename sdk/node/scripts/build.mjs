#!/usr/bin/env node
// Builds the package: dist/esm (ES modules) and dist/cjs (CommonJS, with a {"type":"commonjs"} package.json),
// each one bundled file from src/index.ts by esbuild (this package's devDependency; in the repository the root's
// copy is found too), plus the type declarations written by tsc into both (so each condition of "exports" has its own, of the right kind).
// `--no-types` skips tsc. Run from anywhere: `node sdk/node/scripts/build.mjs`.
import { execFileSync } from 'node:child_process'
import { cpSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'

const pkg = dirname(dirname(fileURLToPath(import.meta.url)))
const dist = join(pkg, 'dist')
const require = createRequire(import.meta.url)
const { build } = await import('esbuild')

rmSync(dist, { recursive: true, force: true })
const common = {
  entryPoints: [join(pkg, 'src/index.ts')],
  bundle: true,
  platform: 'node',
  target: 'node18',
  keepNames: true,
  legalComments: 'none',
  logLevel: 'warning',
  tsconfig: join(pkg, 'tsconfig.json'),
}
await Promise.all([build({ ...common, format: 'esm', outfile: join(dist, 'esm/index.js') }), build({ ...common, format: 'cjs', outfile: join(dist, 'cjs/index.js') })])
writeFileSync(join(dist, 'cjs/package.json'), '{"type":"commonjs"}\n')

if (!process.argv.includes('--no-types')) {
  const tsc = require.resolve('typescript/bin/tsc')
  execFileSync(process.execPath, [tsc, '-p', join(pkg, 'tsconfig.json')], { stdio: 'inherit' })
  const types = join(dist, 'types')
  const walk = (dir) => readdirSync(dir).flatMap((n) => (statSync(join(dir, n)).isDirectory() ? walk(join(dir, n)) : [join(dir, n)]))
  for (const file of walk(types)) {
    for (const flavour of ['esm', 'cjs']) {
      const to = join(dist, flavour, relative(types, file))
      mkdirSync(dirname(to), { recursive: true })
      cpSync(file, to)
    }
  }
  rmSync(types, { recursive: true, force: true })
}
process.stdout.write(`built ${relative(process.cwd(), dist) || 'dist'}: esm, cjs${process.argv.includes('--no-types') ? '' : ', types'}\n`)
