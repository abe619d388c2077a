#!/usr/bin/env node
// Runs the whole suite twice: on SQLite, then on PostgreSQL (127.0.0.1:5432/test, a fresh schema per
// test app) with Redis (127.0.0.1:6379). TEST_DB=sqlite|postgres runs one engine; extra args filter files.
import { spawnSync } from 'node:child_process'
import { existsSync, readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'

function find(dir, out = []) {
  if (!existsSync(dir)) return out
  for (const name of readdirSync(dir)) {
    if (name === 'node_modules' || name.startsWith('.')) continue
    const p = join(dir, name)
    if (statSync(p).isDirectory()) find(p, out)
    else if (name.endsWith('.test.ts')) out.push(p)
  }
  return out
}

const filters = process.argv.slice(2)
const files = [...find('src'), ...find('test'), ...find('sdk'), ...find('dashboard')].filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort()
// The browser tests load the built dashboard: build it once (skipped when its sources have not changed).
if (files.some((f) => f.startsWith('dashboard'))) await (await import('../dashboard/build.mjs')).buildDashboard()
const engines = process.env.TEST_DB ? [process.env.TEST_DB] : ['sqlite', 'postgres']
let failed = false
for (const engine of engines) {
  process.stdout.write(`\n=== test suite on ${engine} (${files.length} files) ===\n`)
  const env = {
    ...process.env,
    TEST_DB: engine,
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    TEST_PG_URL: process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test',
    TEST_REDIS_URL: process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379',
  }
  const r = spawnSync(
    process.execPath,
    [
      '--import',
      'tsx',
      '--test',
      '--test-reporter=spec',
      `--test-concurrency=${process.env.TEST_CONCURRENCY ?? 2}`,
      // A test that hangs fails after 3 minutes, and a file whose handles stay open still ends.
      '--test-timeout=180000',
      '--test-force-exit',
      ...files,
    ],
    { stdio: 'inherit', env },
  )
  if (r.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
