#!/usr/bin/env node
// Runs the whole suite twice: on SQLite, then on PostgreSQL (127.0.0.1:5432/test, a fresh schema per
// test app) with Redis (127.0.0.1:6379). TEST_DB=sqlite|postgres runs one engine; extra args filter files
// (`npm test -- src/modules/leads` or `npm test -- leads`: every test file whose path contains one of them).
// The whole suite also runs the linter (npm run lint, then npm run format:check) and the mutation run
// (scripts/mutation.mjs), both beside the last engine's pass (see `background`): a red one is a red run. A filtered
// run skips them (LINT=1 / MUTATION=1 run them anyway; LINT=0 / MUTATION=0 skip them on a whole run). At the end:
// each engine's time, the slowest test files and what failed.
import { spawn } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { join, relative, resolve } from 'node:path'
import { nodeTestArgs, testEnv } from './test-process.mjs'

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
const started = performance.now()
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`

// Work that runs beside the last engine's pass (the linter; the mutation run): that pass waits on PostgreSQL and
// leaves a fifth of the 2 cores idle (vmstat), where the SQLite pass keeps both busy; run first, one after the
// other, the linter (one core, ~150 s) and the mutation run (~40 s) added their whole time to the suite's. Their
// output is kept and printed when they end, after the pass's; a red one is a red run.
function background(label, steps) {
  const t0 = performance.now()
  let out = ''
  const run = ([cmd, args, env]) =>
    new Promise((done) => {
      const c = spawn(cmd, args, { env: env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
      c.stdout.on('data', (b) => (out += b))
      c.stderr.on('data', (b) => (out += b))
      c.on('close', (code, signal) => done(code === 0 && !signal))
    })
  return (async () => {
    let ok = true
    // A step runs only when the ones before it passed (the formatter's check after a clean lint).
    for (const step of steps) if (ok) ok = await run(step)
    return { label, ok, ms: performance.now() - t0, out }
  })()
}
const lintWanted = process.env.LINT === '1' || (filters.length === 0 && process.env.LINT !== '0')
let lint = null
const files = [...find('src'), ...find('lib'), ...find('test'), ...find('sdk'), ...find('dashboard')].filter((f) => filters.length === 0 || filters.some((x) => f.includes(x))).sort()
// The browser tests load the built dashboard: build it once (skipped when its sources have not changed).
if (files.some((f) => f.startsWith('dashboard'))) await (await import('../dashboard/build.mjs')).buildDashboard()
// Each test file is a process that loads the whole app graph through tsx first (~3.5 s of CPU, more than most
// route tests take to run). A module's route tests only call the app in process, so they share one process: one
// entry file per module imports them all and runs them one after another. The browser tests (dashboard/e2e) go in
// E2E_GROUPS processes, balanced by their last times (see e2eGroups), whose files share one Chromium
// (dashboard/e2e/harness.ts; each file still starts its own server). TEST_GROUP=0 runs every file alone.
// One folder per run: two runs at once (a whole suite and a few files) must not remove each other's entries.
const GROUP_DIR = join('.tmp', 'test-groups', String(process.pid))
process.on('exit', () => rmSync(GROUP_DIR, { recursive: true, force: true }))
// Each engine's timings of the last run, kept: the slowest files beyond the ten printed (`.tmp/test-timings/last/`).
const LAST_TIMINGS = join('.tmp', 'test-timings', 'last')
// A group's entry file is named in the timings by the module's route tests it runs.
const labels = new Map()
// Group entries that run on SQLite only (the browser tests'), by entry path.
const sqliteOnlyEntries = new Set()
// The browser tests' group entries, by entry path: how many files each runs.
const e2eEntries = new Map()
const E2E_TEST = /^dashboard\/e2e\/[^/]+\.e2e\.test\.ts$/
// Each browser test file started its own test process (~0.7 s), loaded playwright-core (~0.9 s of CPU) and launched
// Chromium (~1.5 s of CPU, as much again to close it) before its first test: 33 files, ~100 s of the 2 cores' time.
// Four processes: with --test-concurrency=2 each core runs two, and a file's failure or a crash reaches a quarter.
const E2E_GROUPS = 4
function grouped(list) {
  if (process.env.TEST_GROUP === '0') return list
  rmSync(GROUP_DIR, { recursive: true, force: true })
  const groups = new Map()
  const alone = []
  const e2e = []
  for (const f of list) {
    const posix = f.split('\\').join('/')
    const m = /^src\/modules\/([^/]+)\/routes\/[^/]+\.route\.test\.ts$/.exec(posix)
    if (m) groups.set(m[1], [...(groups.get(m[1]) ?? []), f])
    else if (E2E_TEST.test(posix)) e2e.push(f)
    else alone.push(f)
  }
  const entry = (name, comment, members) => {
    mkdirSync(GROUP_DIR, { recursive: true })
    const file = join(GROUP_DIR, name)
    writeFileSync(file, `// ${comment} (scripts/test.mjs)\n` + members.map((f) => `import ${JSON.stringify(relative(GROUP_DIR, f).split('\\').join('/'))}\n`).join(''))
    return file
  }
  const entries = []
  // A set of one (a filtered run of a few files) runs as the file it is.
  const e2eSets = e2eGroups(e2e)
  for (const [i, members] of e2eSets.entries()) {
    if (members.length === 1) {
      alone.push(members[0])
      continue
    }
    const file = entry(`e2e-${i + 1}.test.mjs`, `browser tests, group ${i + 1} of ${e2eSets.length}: one process, one Chromium`, members)
    entries.push(file)
    sqliteOnlyEntries.add(file)
    e2eEntries.set(file, members.length)
    labels.set(resolve(file), `dashboard/e2e/*.e2e.test.ts group ${i + 1} of ${e2eSets.length} (${members.length} files in one process)`)
  }
  for (const [module, members] of groups) {
    if (members.length === 1) {
      alone.push(members[0])
      continue
    }
    const file = entry(`${module}.routes.test.mjs`, `${module}: its route tests in one process`, members)
    entries.push(file)
    labels.set(resolve(file), `src/modules/${module}/routes/*.route.test.ts (${members.length} files in one process)`)
  }
  // The groups run longest (the browser tests' longest of all): start them first.
  return [...entries, ...alone]
}

/**
 * The browser test files in E2E_GROUPS sets of about equal time, longest set first: each file, longest first, joins the
 * set with the least time so far. A file's time is its last one on SQLite (LAST_TIMINGS: a whole process's, or its
 * suites' in a group), else its size at the known files' milliseconds per byte (a new file, a fresh checkout). Within
 * a set the files keep their order.
 */
function e2eGroups(list) {
  const known = new Map()
  const suites = new Map()
  const path = join(LAST_TIMINGS, 'sqlite.json')
  for (const line of existsSync(path) ? readFileSync(path, 'utf8').split('\n') : []) {
    let t
    try {
      t = JSON.parse(line)
    } catch {
      continue
    }
    // A bundle (.tmp/test-bundle/<pid>/dashboard/e2e/x.e2e.test.js) stands for its source.
    const source = relative(process.cwd(), t.file ?? '')
      .split('\\')
      .join('/')
      .replace(/^\.tmp\/test-bundle\/\d+\/(.*)\.js$/, '$1.ts')
    if (t.ms !== undefined) known.set(source, t.ms)
    else if (t.suite !== undefined) suites.set(source, (suites.get(source) ?? 0) + t.suite)
  }
  for (const [f, ms] of suites) if (!known.has(f)) known.set(f, ms)
  const size = (f) => statSync(f).size
  const measured = list.filter((f) => known.has(f.split('\\').join('/')))
  const perByte = measured.length === 0 ? 1 : measured.reduce((n, f) => n + known.get(f.split('\\').join('/')), 0) / measured.reduce((n, f) => n + size(f), 0)
  const weight = (f) => known.get(f.split('\\').join('/')) ?? size(f) * perByte
  const sets = Array.from({ length: Math.min(E2E_GROUPS, list.length) }, () => ({ ms: 0, files: [] }))
  for (const f of [...list].sort((a, b) => weight(b) - weight(a))) {
    const least = sets.reduce((a, b) => (b.ms < a.ms ? b : a))
    least.ms += weight(f)
    least.files.push(f)
  }
  return sets.sort((a, b) => b.ms - a.ms).map((s) => list.filter((f) => s.files.includes(f)))
}
const groupedFiles = grouped(files)
// Each process then loads its bundle instead of the source graph through tsx (scripts/test-bundle.mjs).
const BUNDLE_DIR = join('.tmp', 'test-bundle', String(process.pid))
let runFiles = groupedFiles
let bundled = false
if (process.env.TEST_BUNDLE !== '0' && groupedFiles.length > 0) {
  const bundleStarted = performance.now()
  process.on('exit', () => rmSync(BUNDLE_DIR, { recursive: true, force: true }))
  // The servers the clients' suites and the browser tests start as processes (lib/testing/announced-process.ts) go in too.
  const servers = ['scripts/live-server.ts', 'scripts/e2e-server.ts'].filter((f) => existsSync(f) && files.some((t) => /^(sdk|dashboard)[\\/]/.test(t)))
  const bundles = await (await import('./test-bundle.mjs')).bundleTests([...groupedFiles, ...servers], BUNDLE_DIR)
  if (servers.length > 0) process.env.SVC_TEST_SCRIPTS = resolve(BUNDLE_DIR, 'scripts')
  bundled = true
  runFiles = groupedFiles.map((f) => {
    const b = bundles.get(f)
    labels.set(resolve(b), labels.get(resolve(f)) ?? relative(process.cwd(), f))
    return b
  })
  process.stdout.write(`bundled ${groupedFiles.length} test entries in ${seconds(performance.now() - bundleStarted)} (TEST_BUNDLE=0 runs the sources)\n`)
}
// The tests that start real processes (the server, the CLI: test/spawn.ts) start this run's bundle of the
// source, as production starts dist/main.js: ~1.5 s to listen instead of ~4.5 s through the TypeScript loader,
// which matters for files that start a dozen processes on a loaded machine. SVC_TEST_BUILD=0 starts the source.
const TEST_BUILD = join('.tmp', 'test-build', String(process.pid))
if (process.env.SVC_TEST_BUILD !== '0') {
  await (await import('./build.mjs')).buildService(TEST_BUILD, { cli: true })
  process.on('exit', () => rmSync(TEST_BUILD, { recursive: true, force: true }))
}
const engines = process.env.TEST_DB ? [process.env.TEST_DB] : ['sqlite', 'postgres']
// Files run in SQLite's pass only: sdk/ and dashboard/ (the client suites and the browser tests run once, on SQLite,
// and skip themselves on PostgreSQL) and files marked `// test-engines: sqlite` (no database involved). Left out of
// PostgreSQL's pass, they cost no process there.
const SQLITE_ONLY = /^\/\/ test-engines: sqlite\b/m
const sqliteOnly = (f) => /^(sdk|dashboard)[\\/]/.test(f) || sqliteOnlyEntries.has(f) || (f.endsWith('.ts') && SQLITE_ONLY.test(readFileSync(f, 'utf8').slice(0, 4000)))
// Each engine's run also writes its files' times (scripts/test-timings-reporter.mjs) here.
const TIMINGS_DIR = join('.tmp', 'test-timings', String(process.pid))
mkdirSync(TIMINGS_DIR, { recursive: true })
process.on('exit', () => rmSync(TIMINGS_DIR, { recursive: true, force: true }))
const summary = []
let failed = false
// The mutation run (scripts/mutation.mjs): hand-picked faults its tests must catch, on SQLite. Like the lint it runs on
// a whole run only (MUTATION=1 runs it on a filtered one, MUTATION=0 skips it on a whole one). With both engines it
// starts beside PostgreSQL's pass, once SQLite's is done.
const mutationWanted = process.env.MUTATION === '1' || (filters.length === 0 && engines.includes('sqlite') && process.env.MUTATION !== '0')
let mutation = null
function startMutation() {
  // A whole run whose SQLite pass was green has run the mutants' tests unmutated already.
  const sqliteGreen = filters.length === 0 && summary.some((x) => x.engine === 'sqlite' && x.ok)
  const env = sqliteGreen ? { ...process.env, MUTATION_BASELINE: 'passed' } : process.env
  return background('mutation run', [[process.execPath, ['scripts/mutation.mjs'], env]])
}
const passOf = (args, env) =>
  new Promise((done) => {
    const c = spawn(process.execPath, args, { stdio: 'inherit', env })
    c.on('close', (code, signal) => done({ status: signal ? 1 : code }))
  })
for (const [i, engine] of engines.entries()) {
  const last = i === engines.length - 1
  if (last && lintWanted)
    lint = background('lint', [
      ['npm', ['run', '--silent', 'lint']],
      ['npm', ['run', '--silent', 'format:check']],
    ])
  if (last && mutationWanted && engine !== 'sqlite') mutation = startMutation()
  const engineStarted = performance.now()
  const timingsFile = join(TIMINGS_DIR, `${engine}.json`)
  const engineIndexes = runFiles.map((_, i) => i).filter((i) => engine !== 'postgres' || !sqliteOnly(groupedFiles[i]))
  // The browser tests' groups run first, in a `node --test` of their own: it gives each file (a group's process) the
  // time limit it gives each test, 3 minutes, which a group of browser test files takes on a loaded machine. Theirs
  // is 3 minutes per file in the largest group (a hung browser test fails that much later; playwright's own 30 s
  // limits end most waits first). The rest follows with the usual limit.
  const e2eRun = engineIndexes.filter((i) => e2eEntries.has(groupedFiles[i])).map((i) => runFiles[i])
  const restRun = engineIndexes.filter((i) => !e2eEntries.has(groupedFiles[i])).map((i) => runFiles[i])
  const e2eLimit = 180000 * Math.max(1, ...e2eEntries.values())
  const leftOut = engine === 'postgres' ? files.filter(sqliteOnly).length : 0
  process.stdout.write(
    `\n=== test suite on ${engine} (${files.length - leftOut} files${leftOut ? `; ${leftOut} SQLite-only left out` : ''}${last && (lint || mutation) ? `; ${[lint && 'the lint', mutation && 'the mutation run'].filter(Boolean).join(' and ')} beside it` : ''}) ===\n`,
  )
  const env = testEnv(engine, process.env.SVC_TEST_BUILD === '0' ? '' : resolve(TEST_BUILD))
  // No file for this engine: `node --test` without files would look for every test file itself.
  const r = { status: 0 }
  for (const [list, timeoutMs] of [
    [e2eRun, e2eLimit],
    [restRun, undefined],
  ]) {
    if (list.length > 0 && (await passOf(nodeTestArgs(list, { bundled, timingsFile, timeoutMs }), env)).status !== 0) r.status = 1
  }
  if (r.status !== 0) failed = true
  summary.push({ engine, count: files.length - leftOut, ms: performance.now() - engineStarted, ok: r.status === 0, files: readTimings(timingsFile), failures: readFailures(timingsFile) })
  // The last runs were kept for the next look at where the time goes (the timings folder goes at exit).
  if (existsSync(timingsFile)) {
    mkdirSync(LAST_TIMINGS, { recursive: true })
    copyFileSync(timingsFile, join(LAST_TIMINGS, `${engine}.json`))
  }
}
// SQLite alone (TEST_DB=sqlite): nothing runs after it, so the mutation run runs now.
if (mutationWanted && !mutation) mutation = startMutation()
const backgrounds = []
for (const job of [lint, mutation]) {
  if (!job) continue
  const r = await job
  process.stdout.write(`\n=== ${r.label} (${seconds(r.ms)}${r.ok ? '' : ', FAILED'}) ===\n${r.out}`)
  if (!r.ok) failed = true
  backgrounds.push(r)
}

// A file's time: the runner's own for the file, else its top-level tests' times, else the longest span the reporter saw.
function readTimings(file) {
  if (!existsSync(file)) return []
  const whole = new Map()
  const spans = new Map()
  const suites = new Map()
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    let t
    try {
      t = JSON.parse(line)
    } catch {
      continue // empty, or the last line cut short by a killed run
    }
    if (t.ms !== undefined) whole.set(t.file, t.ms)
    else if (t.span !== undefined) spans.set(t.file, Math.max(spans.get(t.file) ?? 0, t.span))
    // A file in a group: the sum of its top-level tests' own times (hooks included), where the runner gave them.
    if (t.suite !== undefined) suites.set(t.file, (suites.get(t.file) ?? 0) + t.suite)
  }
  for (const [f, ms] of suites) spans.set(f, ms)
  // A bundled file's events name its bundle (the file's own test) and, through the source map, its source (the
  // tests inside it): both are one file, by its label.
  const label = (f) => labels.get(f) ?? relative(process.cwd(), f)
  const byLabel = new Map()
  for (const [f, ms] of whole) byLabel.set(label(f), { ms, whole: true })
  for (const [f, ms] of spans) {
    const seen = byLabel.get(label(f))
    if (!seen?.whole) byLabel.set(label(f), { ms: Math.max(seen?.ms ?? 0, ms), whole: false })
  }
  return [...byLabel].map(([file, t]) => ({ file, ms: t.ms }))
}

// The failed tests the reporter saw, by file label (a bundled file's events name its bundle or its source).
function readFailures(file) {
  if (!existsSync(file)) return []
  const out = []
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    try {
      const t = JSON.parse(line)
      if (t.fail !== undefined) out.push({ ...t, file: labels.get(t.file) ?? relative(process.cwd(), t.file) })
    } catch {
      continue
    }
  }
  return out
}

// The times, last, where a reader of a long log looks: which engine took how long, and where the time went.
process.stdout.write('\n=== test times ===\n')
for (const s of summary) {
  process.stdout.write(`${s.engine}: ${seconds(s.ms)} (${s.count} files${s.ok ? '' : ', FAILED'})\n`)
  const slowest = s.files.sort((a, b) => b.ms - a.ms).slice(0, 10)
  if (slowest.length > 0) process.stdout.write(`  the ${slowest.length} slowest on ${s.engine}:\n`)
  for (const f of slowest) process.stdout.write(`  ${seconds(f.ms).padStart(9)}  ${f.file}\n`)
  // What failed, where a reader of the log's tail looks (the spec reporter's account is thousands of lines above).
  if (!s.ok) process.stdout.write(`  failed on ${s.engine}: ${s.failures.length === 0 ? 'no test reported a failure (a process exited?)' : ''}\n`)
  for (const f of s.ok ? [] : s.failures.slice(0, 20)) {
    process.stdout.write(`    ✖ ${f.file}${f.line ? `:${f.line}` : ''} — ${f.fail}\n`)
    if (f.error)
      process.stdout.write(
        f.error
          .split('\n')
          .map((l) => `        ${l}\n`)
          .join(''),
      )
  }
}
// Beside the last pass: their own times, inside the total.
for (const r of backgrounds) process.stdout.write(`${r.label} (beside the last pass): ${seconds(r.ms)}${r.ok ? '' : ' (FAILED)'}\n`)
process.stdout.write(`total: ${seconds(performance.now() - started)}\n`)
process.exit(failed ? 1 : 0)
