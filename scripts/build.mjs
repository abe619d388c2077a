#!/usr/bin/env node
// Transpile src/**/*.ts to dist/ (one file per file, ESM, no bundling) with esbuild, which tsx already
// brings. `npm start` runs the compiled output: no TypeScript loader thread in production, lower RSS.
import { build } from 'esbuild'
import { readdirSync, rmSync, statSync } from 'node:fs'
import { join } from 'node:path'

function find(dir, out = []) {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) find(p, out)
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.d.ts')) out.push(p)
  }
  return out
}

rmSync('dist', { recursive: true, force: true })
await build({
  entryPoints: find('src'),
  outdir: 'dist',
  outbase: 'src',
  format: 'esm',
  platform: 'node',
  target: 'node20',
  sourcemap: true,
  logLevel: 'warning',
})
