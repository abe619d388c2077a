#!/usr/bin/env node
// Runs the whole suite twice: on SQLite, then on PostgreSQL (127.0.0.1:5432/test, a fresh schema per
// test app) with Redis (127.0.0.1:6379). TEST_DB=sqlite|postgres runs one engine; extra args filter files.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

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
// Each test file is a process that loads the whole app graph through tsx first (~3.5 s of CPU, more than most
// route tests take to run). A module's route tests only call the app in process, so they share one process: one
// entry file per module imports them all and runs them one after another. TEST_GROUP=0 runs every file alone.
// One folder per run: two runs at once (a whole suite and a few files) must not remove each other's entries.
const GROUP_DIR = join('.tmp', 'test-groups', String(process.pid))
process.on('exit', () => rmSync(GROUP_DIR, { recursive: true, force: true }))
function grouped(list) {
  if (process.env.TEST_GROUP === '0') return list
  rmSync(GROUP_DIR, { recursive: true, force: true })
  const groups = new Map()
  const alone = []
  for (const f of list) {
    const m = /^src\/modules\/([^/]+)\/routes\/[^/]+\.route\.test\.ts$/.exec(f.split('\\').join('/'))
    if (m) groups.set(m[1], [...(groups.get(m[1]) ?? []), f])
    else alone.push(f)
  }
  const entries = []
  for (const [module, members] of groups) {
    if (members.length === 1) {
      alone.push(members[0])
      continue
    }
    mkdirSync(GROUP_DIR, { recursive: true })
    const entry = join(GROUP_DIR, `${module}.routes.test.mjs`)
    writeFileSync(entry, `// ${module}: its route tests in one process (scripts/test.mjs)\n` + members.map((f) => `import ${JSON.stringify(pathToFileURL(resolve(f)).href)}\n`).join(''))
    entries.push(entry)
  }
  // The groups run longest: start them first.
  return [...entries, ...alone]
}
const runFiles = grouped(files)
// The tests that start real processes (the server, the CLI: test/spawn.ts) start this run's bundle of the
// source, as production starts dist/main.js: ~1.5 s to listen instead of ~4.5 s through the TypeScript loader,
// which matters for files that start a dozen processes on a loaded machine. SVC_TEST_BUILD=0 starts the source.
const TEST_BUILD = join('.tmp', 'test-build', String(process.pid))
if (process.env.SVC_TEST_BUILD !== '0') {
  await (await import('./build.mjs')).buildService(TEST_BUILD, { cli: true })
  process.on('exit', () => rmSync(TEST_BUILD, { recursive: true, force: true }))
}
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
    SVC_TEST_BUILD: process.env.SVC_TEST_BUILD === '0' ? '' : resolve(TEST_BUILD),
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
      ...runFiles,
    ],
    { stdio: 'inherit', env },
  )
  if (r.status !== 0) failed = true
}
process.exit(failed ? 1 : 0)
