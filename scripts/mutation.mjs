#!/usr/bin/env node
// A short mutation run (issue 34): a few hand-picked faults in the code behind our promises (tenant scoping,
// signatures, the outbound-URL policy, key scopes, idempotency, the lead status machine, cursors, rate limits,
// the jobs' attempts cap), each of which its one test file must catch. `npm run test:mutation` runs them all
// (arguments filter by the mutation's name, file or test); a whole run of the suite runs it after its engines
// (scripts/test.mjs; MUTATION=0 skips it there). `--check` only checks the list: every `search` text still occurs
// exactly once in its file, so a refactor that moves the text fails here rather than leaving a mutation that
// mutates nothing (test/mutation-list.test.ts runs it).
//
// The working tree is never written: each mutant is a bundle of its test file (scripts/test-bundle.mjs) whose
// loader reads the mutated text in place of the one file, in a folder under .tmp/ removed at exit. Each test file
// runs unmutated first and must pass, so a red test is not counted as catching anything; then each mutant runs
// as the suite runs it (scripts/test-process.mjs, SQLite) and must fail. A test must reach the mutated file in
// process: a test that starts the service as a process (test/spawn.ts) would run the unmutated build.
import { spawn } from 'node:child_process'
import { existsSync, readFileSync, rmSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'

/** name: what the fault does; file: the production file; search: its exact text there (once); replace: the fault; test: the file that must catch it. */
export const MUTATIONS = [
  {
    name: "findLead reads any workspace's lead (tenant filter dropped)",
    file: 'src/modules/leads/leads.repository.ts',
    search: "return scoped(db, tenant).selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst()",
    replace: "return db.selectFrom('leads').selectAll().where('id', '=', id).executeTakeFirst()",
    test: 'src/modules/leads/routes/get-lead.route.test.ts',
  },
  {
    name: 'a Twilio signature of the right length verifies, whatever its bytes',
    file: 'src/kernel/twilio/signature.ts',
    search: 'if (expected.length === given.length && timingSafeEqual(expected, given)) ok = true',
    replace: 'if (expected.length === given.length) ok = true',
    test: 'src/kernel/twilio/signature.test.ts',
  },
  {
    name: 'outbound URLs may reach private addresses although private networks are not allowed',
    file: 'src/kernel/outbound/address-policy.ts',
    search: ".filter((v) => v.class === 'forbidden' || (v.class === 'private' && !allowPrivateNetworks))",
    replace: ".filter((v) => v.class === 'forbidden')",
    test: 'src/kernel/outbound/address-policy.test.ts',
  },
  {
    name: "a scope's read grants its write (leads:read may delete a lead)",
    file: 'src/kernel/auth/scopes.ts',
    search: "const actionOk = heldAct === reqAct || (heldAct === 'write' && reqAct === 'read')",
    replace: 'const actionOk = true',
    test: 'src/modules/leads/routes/delete-lead.route.test.ts',
  },
  {
    name: 'an Idempotency-Key reused with another body replays the first response',
    file: 'src/kernel/http/idempotency.ts',
    search: 'if (row.request_hash !== hash) {',
    replace: 'if (false) {',
    test: 'test/idempotency.test.ts',
  },
  {
    name: 'a converted lead can be reopened',
    file: 'src/modules/leads/lead-status.ts',
    search: 'converted: [],',
    replace: "converted: ['new'],",
    test: 'src/modules/leads/routes/update-lead-status.route.test.ts',
  },
  {
    name: "a cursor's HMAC is not checked",
    file: 'src/kernel/http/pagination.ts',
    search: 'if (given.length !== expected.length || !timingSafeEqual(given, expected) || !shape.test(parsed.k)) throw invalidCursor()',
    replace: 'if (!shape.test(parsed.k)) throw invalidCursor()',
    test: 'test/cursors.test.ts',
  },
  {
    name: 'an invented API key opens a rate-limit bucket of its own',
    file: 'src/kernel/http/authentication.ts',
    search: 'return principal ? `k:${principal.keyId}` : `ip:${request.ip}`',
    replace: 'return principal ? `k:${principal.keyId}` : `k:${key}`',
    test: 'test/rate-limit.test.ts',
  },
  {
    name: "a job's last failed attempt is retried instead of failing it (off by one)",
    file: 'src/kernel/jobs/jobs.ts',
    search: 'const finalAttempt = job.attempts >= job.max_attempts',
    replace: 'const finalAttempt = job.attempts > job.max_attempts',
    test: 'src/kernel/jobs/jobs.test.ts',
  },
]

// Test support that starts the service as a process: such a test would not run the mutant.
const SPAWNS = ['test/spawn.ts', 'lib/testing/announced-process.ts']

/** What is wrong with the list (empty when nothing): each text found exactly once, each file and test present. */
export function checkMutations(list = MUTATIONS) {
  const problems = []
  const names = new Set()
  for (const m of list) {
    const where = `mutation "${m.name}"`
    if (names.has(m.name)) problems.push(`${where}: the name is used twice`)
    names.add(m.name)
    if (!existsSync(m.test) || !m.test.endsWith('.test.ts')) problems.push(`${where}: the test ${m.test} is not a test file`)
    // The test databases are copied from a template keyed by the migrations on disk (test/db-template.ts).
    if (/migrations?\.ts$/.test(m.file) || /\.(test|testkit)\.ts$/.test(m.file)) problems.push(`${where}: ${m.file} is not production code that can be mutated here`)
    if (m.search === m.replace) problems.push(`${where}: replace equals search`)
    if (!existsSync(m.file)) {
      problems.push(`${where}: ${m.file} does not exist`)
      continue
    }
    const count = readFileSync(m.file, 'utf8').split(m.search).length - 1
    if (count !== 1) problems.push(`${where}: its search text occurs ${count} times in ${m.file} (exactly once expected; update the list after a refactor)`)
  }
  return problems
}

/** Runs `bundle` under node:test as the suite does; resolves with whether it passed, its seconds and its output. */
function runTest(bundle, timeoutMs, { nodeTestArgs, testEnv }) {
  return new Promise((done) => {
    const started = performance.now()
    // Its own process group, so a hung run is ended with the test processes node:test started.
    const child = spawn(process.execPath, nodeTestArgs([bundle], { bundled: true, concurrency: 1 }), { env: testEnv('sqlite'), detached: true, stdio: ['ignore', 'pipe', 'pipe'] })
    children.add(child)
    let output = ''
    const keep = (chunk) => (output = (output + chunk).slice(-20_000))
    child.stdout.on('data', keep)
    child.stderr.on('data', keep)
    let timedOut = false
    const timer = setTimeout(() => {
      timedOut = true
      process.kill(-child.pid, 'SIGKILL')
    }, timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      children.delete(child)
      done({ passed: code === 0 && !timedOut, timedOut, seconds: (performance.now() - started) / 1000, output })
    })
  })
}

const children = new Set()

/** Runs `tasks` (functions answering promises), at most `n` at once, in order. */
async function pool(tasks, n) {
  const results = new Array(tasks.length)
  let next = 0
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++
      results[i] = await tasks[i]()
    }
  }
  await Promise.all(Array.from({ length: Math.min(n, tasks.length) }, worker))
  return results
}

function table(rows) {
  const head = ['mutation', 'file', 'test', 'result', 's']
  const cells = [head, ...rows.map((r) => [r.name, r.file, r.test, r.result, r.seconds.toFixed(1)])]
  const widths = head.map((_, i) => Math.max(...cells.map((c) => c[i].length)))
  return cells.map((c) => c.map((v, i) => (i === 4 ? v.padStart(widths[i]) : v.padEnd(widths[i]))).join('  ')).join('\n')
}

/** The run (or, with `--check`, the list's check) over `list`; answers the exit status. */
export async function main(argv, list = MUTATIONS) {
  const problems = checkMutations(list)
  if (problems.length > 0) {
    process.stderr.write(`mutation list out of date:\n${problems.map((p) => `  ${p}`).join('\n')}\n`)
    return 1
  }
  if (argv.includes('--check')) {
    process.stdout.write(`mutation list: ${list.length} mutations, each search text found once\n`)
    return 0
  }
  const filters = argv.filter((a) => !a.startsWith('--'))
  const chosen = list.filter((m) => filters.length === 0 || filters.some((f) => m.name.includes(f) || m.file.includes(f) || m.test.includes(f)))
  if (chosen.length === 0) {
    process.stderr.write(`no mutation matches ${filters.join(', ')}\n`)
    return 1
  }
  const { testRebundler } = await import('./test-bundle.mjs')
  const proc = await import('./test-process.mjs')
  const started = performance.now()
  const dir = join('.tmp', 'mutation', String(process.pid))
  process.on('exit', () => rmSync(dir, { recursive: true, force: true }))
  const tests = [...new Set(chosen.map((m) => m.test))]

  // One esbuild context for every test: the unmutated bundles first (a full build), then a mutant per rebuild,
  // which parses only the mutated file again. A mutant's tests start as soon as its bundle and its test's
  // unmutated run are ready.
  const rebundler = await testRebundler(tests, dir)
  const baselines = new Map(tests.map((t, i) => [t, rebundler.bundle(t, `baseline-${i}`)]))
  const mutants = chosen.map(async (m, i) => {
    const path = resolve(m.file)
    const text = readFileSync(path, 'utf8')
    const { bundle, inputs } = await rebundler.bundle(m.test, `mutant-${i}`, new Map([[path, text.replace(m.search, () => m.replace)]]))
    const spawns = SPAWNS.filter((s) => inputs.has(s))
    if (spawns.length > 0)
      throw new Error(`mutation "${m.name}": ${m.test} starts the service as a process (${spawns.join(', ')}), which would run the unmutated code; pick a test that calls the app in process`)
    if (!inputs.has(m.file)) throw new Error(`mutation "${m.name}": ${m.test} does not load ${m.file}`)
    return bundle
  })
  // A failed bundle fails the run when its test is due (after the runs under way), never as an unhandled rejection.
  for (const p of [...baselines.values(), ...mutants]) p.catch(() => {})
  const built = Promise.all([...baselines.values(), ...mutants])
    .then(() => process.stdout.write(`bundled ${tests.length} tests and ${chosen.length} mutants in ${((performance.now() - started) / 1000).toFixed(1)} s\n`))
    .catch(() => {})
    .finally(() => rebundler.dispose())

  const concurrency = Number(process.env.MUTATION_CONCURRENCY ?? process.env.TEST_CONCURRENCY ?? 2)
  const base = new Map(tests.map((t, i) => [t, i]))
  // The whole suite's runner says when its SQLite pass just ran these files green (MUTATION_BASELINE=passed): their
  // unmutated runs would repeat it, about 40 % of this run. A mutant then counts as hung after two minutes.
  const known = process.env.MUTATION_BASELINE === 'passed'
  const baseResults = known
    ? tests.map(() => ({ passed: true, seconds: 24, output: '' }))
    : await pool(
        tests.map((t) => async () => runTest((await baselines.get(t)).bundle, 300_000, proc)),
        concurrency,
      )
  const red = tests.filter((_, i) => !baseResults[i].passed)
  for (const t of red) process.stdout.write(`\n--- ${t} fails unmutated (its output's end) ---\n${baseResults[base.get(t)].output.slice(-4000)}\n`)
  const mutantResults = await pool(
    chosen.map((m, i) => async () => {
      const b = baseResults[base.get(m.test)]
      if (!b.passed) return null
      // A mutant that hangs counts as caught once it runs far longer than its test did.
      return runTest(await mutants[i], Math.max(60_000, b.seconds * 5_000), proc)
    }),
    concurrency,
  )
  await built
  const rows = chosen.map((m, i) => {
    const r = mutantResults[i]
    const result = r === null ? 'not run (test red unmutated)' : r.timedOut ? 'caught (timed out)' : r.passed ? 'SURVIVED' : 'caught'
    return { name: m.name, file: m.file, test: m.test, result, seconds: r?.seconds ?? 0 }
  })
  process.stdout.write(`\n${table(rows)}\n`)
  const survived = rows.filter((r) => r.result === 'SURVIVED').length
  const notRun = rows.filter((r) => r.result.startsWith('not run')).length
  const verdict = survived + notRun === 0 ? `all ${rows.length} mutants caught` : `${survived} of ${rows.length} mutants survived, ${notRun} not run`
  const unmutated = known ? 'green in the suite just run' : baseResults.map((b) => b.seconds.toFixed(1)).join(' + ') + ' s'
  process.stdout.write(`\nmutation run: ${verdict} (${((performance.now() - started) / 1000).toFixed(1)} s; the tests unmutated: ${unmutated})\n`)
  return survived + notRun > 0 ? 1 : 0
}

if (import.meta.url === pathToFileURL(process.argv[1]).href) {
  // A run stopped by a signal ends its tests and removes its bundles (the sources were never touched).
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      for (const c of children) process.kill(-c.pid, 'SIGKILL')
      process.exit(130)
    })
  }
  process.exitCode = await main(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`mutation run failed: ${err instanceof Error ? err.message : String(err)}\n`)
    return 1
  })
}
