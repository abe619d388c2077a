/**
 * API logs scenarios of `npm run bench` (issue 18: "a bench shows request throughput with logging on within
 * 10 % of logging off"). Per engine: one fresh database, two copies of the built service on it — one with
 * API_LOGS=on, one with API_LOGS=off, both `SVC_ROLE=api` (no job worker beside the load) — then each path
 * loaded on one and on the other in turns (on/off, off/on, on/off), so both see the same background load on a
 * shared machine. Reports req/s, p50/p99 of each, the ratio on/off, and what the logging node wrote (rows in
 * api_logs, entries dropped). Writes the `api-logs-bench` block of docs/performance.md on a full run.
 * See bench/api-logs/README.md.
 */
import { execFileSync } from 'node:child_process'
import { cpus, totalmem } from 'node:os'
import { pathToFileURL } from 'node:url'
import { createDatabase } from '../../src/kernel/db/database.js'
import { createTestDatabase } from '../../test/helpers.js'
import { freePort, svc } from '../../test/spawn.js'
import { combine, DURATION, load, pinning, progress, ROOT, startProcess, stop, type LoadResult, putPerformanceBlock } from '../lib.js'
import { cpuSeconds } from '../bots/seed.js'
import { serviceEnv } from '../service.js'

/** In turns: the order alternates so that neither side always runs first after a pause. */
const TURNS = Number(process.env.BENCH_API_LOGS_TURNS ?? 3)
/** Issue 18's goal: logging on within 10 % of off. */
const GOAL = 0.9

export interface ApiLogsRow {
  engine: string
  scenario: string
  on?: LoadResult
  off?: LoadResult
  /** The server's CPU time (user + system) per request, µs, its flushes included: robust to a busy machine. */
  cpu?: { on: number; off: number }
  /** Rows the logging node wrote over the runs of this scenario, and entries it dropped. */
  written?: number
  dropped?: number
  note?: string
}

type Path = { name: string; options: (url: string, headers: Record<string, string>) => Parameters<typeof load>[0] }

export const PATHS: Path[] = [
  // The lightest authenticated operation: logging's share of a request is largest here.
  { name: 'GET /v2/workspaces/current (getCurrentWorkspace)', options: (url, headers) => ({ url: `${url}/v2/workspaces/current`, headers }) },
  // A write: the log flush shares SQLite's single writer (and PostgreSQL's WAL) with it.
  {
    name: 'POST /v2/inbox/conversations (createConversation)',
    options: (url, headers) => ({ url: `${url}/v2/inbox/conversations`, method: 'POST', headers, body: JSON.stringify({ channel: 'api', contact: { name: 'Load' } }) }),
  },
]

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))

async function engineRows(engine: 'sqlite' | 'postgres', entry: string, wanted: (s: string) => boolean): Promise<ApiLogsRow[]> {
  const db = await createTestDatabase(engine)
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Bench', '--json'], db.env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)).key as string
  const [onPort, offPort] = [await freePort(), await freePort()]
  const start = (port: number, apiLogs: 'on' | 'off') => startProcess([entry], { ...db.env, ...serviceEnv(port), SVC_ROLE: 'api', API_LOGS: apiLogs }, `http://127.0.0.1:${port}/livez`)
  const on = await start(onPort, 'on')
  const off = await start(offPort, 'off')
  const database = createDatabase(db.env.DATABASE_URL, { schema: db.env.DATABASE_SCHEMA ?? null })
  const rows: ApiLogsRow[] = []
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const logged = async () =>
      Number(
        (
          await database.db
            .selectFrom('api_logs')
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    const dropped = async () => Number(/^svc_api_logs_dropped_total (\d+)/m.exec(await (await fetch(`http://127.0.0.1:${onPort}/metrics`)).text())?.[1] ?? NaN)
    for (const path of PATHS) {
      if (!wanted(`api logs ${path.name}`)) continue
      const urls = { on: `http://127.0.0.1:${onPort}`, off: `http://127.0.0.1:${offPort}` }
      for (const side of ['on', 'off'] as const) await load({ ...path.options(urls[side], headers), duration: 2 })
      await pause(1500)
      const before = await logged()
      const runs: Record<'on' | 'off', LoadResult[]> = { on: [], off: [] }
      const cpu = { on: 0, off: 0 }
      const pids = { on: on.pid!, off: off.pid! }
      for (let turn = 0; turn < TURNS; turn++) {
        for (const side of turn % 2 === 0 ? (['on', 'off'] as const) : (['off', 'on'] as const)) {
          const cpu0 = cpuSeconds(pids[side])
          runs[side].push(await load(path.options(urls[side], headers)))
          // The logging node's last second is written after its run: not during the other's (and counted in its CPU).
          await pause(1500)
          cpu[side] += cpuSeconds(pids[side]) - cpu0
        }
      }
      const perRequest = (side: 'on' | 'off') =>
        Math.round(
          (cpu[side] * 1e6) /
            Math.max(
              1,
              runs[side].reduce((n, r) => n + r.times.length, 0),
            ),
        )
      const row: ApiLogsRow = {
        engine,
        scenario: path.name,
        on: combine(runs.on),
        off: combine(runs.off),
        cpu: { on: perRequest('on'), off: perRequest('off') },
        written: (await logged()) - before,
        dropped: await dropped(),
      }
      const errors = [row.on!, row.off!].reduce((n, r) => n + r.errors + r.non2xx, 0)
      if (errors) row.note = `${errors} errors or non-2xx`
      progress(`api logs ${engine} ${path.name}: on ${row.on!.rps} req/s, off ${row.off!.rps} req/s (${ratio(row)}), ${row.written} rows written, ${row.dropped} dropped`)
      rows.push(row)
    }
  } finally {
    await database.close()
    await stop(on)
    await stop(off)
    await db.drop()
  }
  return rows
}

// Rounded down, so that the figure never reads as the goal when it misses it.
const ratio = (r: ApiLogsRow) => (r.on && r.off && r.off.rps ? `${(Math.floor((r.on.rps / r.off.rps) * 1000) / 10).toFixed(1)} %` : '—')

export function apiLogsTable(rows: ApiLogsRow[]): string {
  const head =
    '| engine | scenario | req/s off | req/s on | on / off (goal ≥ 90 %) | server CPU µs / request off → on | p50 ms off → on | p99 ms off → on | log rows written | dropped |\n' +
    '|---|---|---:|---:|---:|---:|---:|---:|---:|---:|'
  const body = rows.map((r) => {
    if (!r.on || !r.off) return `| ${r.engine} | ${r.scenario} ${r.note ?? ''} | | | | | | | | |`
    const flag = r.on.rps / r.off.rps >= GOAL ? ' ✓' : ' ⚠'
    return `| ${r.engine} | ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.off.rps} | ${r.on.rps} | ${ratio(r)}${flag} | ${r.cpu?.off} → ${r.cpu?.on} | ${r.off.p50} → ${r.on.p50} | ${r.off.p99} → ${r.on.p99} | ${r.written} | ${r.dropped} |`
  })
  return [head, ...body].join('\n')
}

/** Called by bench/run.ts: the paths `wanted` selects ("api logs GET …"), printed; written to docs/performance.md when measured in full. */
export async function apiLogsBench(engines: string[], wanted: (scenario: string) => boolean, entry = 'dist/main.js'): Promise<ApiLogsRow[]> {
  if (!PATHS.some((p) => wanted(`api logs ${p.name}`))) return []
  const rows: ApiLogsRow[] = []
  for (const engine of engines) {
    try {
      rows.push(...(await engineRows(engine as 'sqlite' | 'postgres', entry, wanted)))
    } catch (err) {
      const msg = `FAILED: ${(err as Error).message.slice(0, 300)}`
      progress(`api logs ${engine} ${msg}`)
      rows.push({ engine, scenario: '—', note: msg })
    }
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${pinning.label}, ${new Date().toISOString()}`
  const out =
    `Latest run: ${machine}. Two copies of the built service (SVC_ROLE=api) on one fresh database, API_LOGS=on and API_LOGS=off, ` +
    `loaded in turns (${TURNS} × ${DURATION} s each, alternating which goes first, 1.5 s apart) at ${process.env.BENCH_CONNECTIONS ?? 50} connections after 2 s of warm-up; ` +
    `req/s is the mean of the turns, latencies over every response of them; server CPU is each process's user + system time over its runs (and the 1.5 s after each, where the last flush lands) divided by its responses.\n\n${apiLogsTable(rows)}`
  process.stdout.write(`\n${out}\n`)
  const full = engines.join(',') === 'sqlite,postgres' && PATHS.every((p) => wanted(`api logs ${p.name}`))
  if (full && rows.every((r) => r.on && r.off)) putPerformanceBlock('api-logs-bench', out)
  return rows
}

// Alone: `node --import tsx bench/api-logs/scenarios.ts` builds dist/main.js as `npm run bench` does (BENCH_API_LOGS_ENTRY: another build).
if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
  const only = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
  const entry = process.env.BENCH_API_LOGS_ENTRY ?? 'dist/main.js'
  if (entry === 'dist/main.js') execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  const rows = await apiLogsBench(engines, (s) => !only || only.test(s), entry)
  process.exit(rows.some((r) => !r.on) ? 1 : 0)
}
