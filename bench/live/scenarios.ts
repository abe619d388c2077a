/**
 * The live event stream in `npm run bench` (issue 31: "the bench holds 1,000 connected clients on one process and
 * reports memory per client"; "event → connected client p95 ≤ 1 s"). Per engine: one fresh database, the built
 * service (SVC_ROLE=api), its resident memory idle, then BENCH_LIVE_CLIENTS (default 1000) streams of one
 * workspace opened and held; memory again (the difference per client); then BENCH_LIVE_EVENTS (default 40)
 * conversations created one after another, each event timed from the request's start to its arrival on every
 * client (p50/p95/max over all client × event pairs). Writes the `live-bench` block of docs/performance.md on a
 * full run. `node --import tsx bench/live/scenarios.ts` runs it alone.
 */
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { pathToFileURL } from 'node:url'
import { createParser } from 'eventsource-parser'
import { Agent } from 'undici'
import { createTestDatabase } from '../../test/helpers.js'
import { freePort, svc } from '../../test/spawn.js'
import { pinning, progress, ROOT, startProcess, stop, putPerformanceBlock } from '../lib.js'
import { serviceEnv } from '../service.js'

const CLIENTS = Number(process.env.BENCH_LIVE_CLIENTS ?? 1000)
const EVENTS = Number(process.env.BENCH_LIVE_EVENTS ?? 40)

export interface LiveRow {
  engine: string
  clients: number
  idleMb: number
  heldMb: number
  perClientKb: number
  p50: number
  p95: number
  max: number
  delivered: number
  expected: number
  note?: string
}

const rssMb = (pid: number) => Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms))
const pct = (xs: number[], p: number) => (xs.length ? xs[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))] : NaN)

async function engineRow(engine: 'sqlite' | 'postgres', entry: string): Promise<LiveRow> {
  const db = await createTestDatabase(engine)
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Bench', '--json'], db.env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)).key as string
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  // Every client comes from 127.0.0.1: the per-address connection cap must let them in.
  const server = await startProcess([entry], { ...db.env, ...serviceEnv(port), SVC_ROLE: 'api', HTTP_MAX_CONNECTIONS_PER_IP: String(CLIENTS + 100) }, `${url}/livez`)
  const dispatcher = new Agent({ connections: null, pipelining: 0 })
  const aborts: AbortController[] = []
  try {
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    // Warm: the routes compiled, the pool open.
    for (let i = 0; i < 5; i++) await fetch(`${url}/v2/inbox/conversations`, { method: 'POST', headers, body: '{}' })
    await pause(1000)
    const idleMb = rssMb(server.pid!)
    const arrivals = new Map<string, number[]>()
    let ready = 0
    const open = async () => {
      const ac = new AbortController()
      aborts.push(ac)
      const res = await fetch(`${url}/v2/events/stream?types=conversation.created`, { headers, signal: ac.signal, dispatcher } as RequestInit)
      const parser = createParser({
        onEvent: (e) => {
          if (e.event === 'ready') ready++
          if (e.event !== 'event') return
          const id = (JSON.parse(e.data) as { data: { object: { id: string } } }).data.object.id
          const list = arrivals.get(id) ?? []
          list.push(performance.now())
          arrivals.set(id, list)
        },
      })
      const reader = res.body!.pipeThrough(new TextDecoderStream()).getReader()
      void (async () => {
        for (;;) {
          const { value, done } = await reader.read()
          if (done) return
          parser.feed(value)
        }
      })().catch(() => undefined)
    }
    for (let i = 0; i < CLIENTS; i += 50) await Promise.all(Array.from({ length: Math.min(50, CLIENTS - i) }, open))
    for (let i = 0; i < 600 && ready < CLIENTS; i++) await pause(50)
    await pause(2000)
    const heldMb = rssMb(server.pid!)
    const latencies: number[] = []
    const started = new Map<string, number>()
    for (let i = 0; i < EVENTS; i++) {
      const t0 = performance.now()
      const c = (await (await fetch(`${url}/v2/inbox/conversations`, { method: 'POST', headers, body: '{}' })).json()) as { id: string }
      started.set(c.id, t0)
      await pause(100)
    }
    await pause(3000)
    for (const [id, t0] of started) for (const t of arrivals.get(id) ?? []) latencies.push(t - t0)
    latencies.sort((a, b) => a - b)
    const round = (v: number) => Math.round(v)
    return {
      engine,
      clients: ready,
      idleMb: round(idleMb),
      heldMb: round(heldMb),
      perClientKb: Math.round(((heldMb - idleMb) * 1024) / Math.max(1, ready)),
      p50: round(pct(latencies, 50)),
      p95: round(pct(latencies, 95)),
      max: round(latencies[latencies.length - 1] ?? NaN),
      delivered: latencies.length,
      expected: EVENTS * ready,
    }
  } finally {
    for (const a of aborts) a.abort()
    await dispatcher.close().catch(() => {})
    await stop(server)
    await db.drop()
  }
}

function table(rows: LiveRow[]): string {
  const head = '| engine | clients held | RSS idle → held (MB) | per client (KB) | event → client p50 / p95 / max (ms) | delivered |\n|---|---|---|---|---|---|'
  return [
    head,
    ...rows.map((r) =>
      r.note
        ? `| ${r.engine} | ${r.note} | | | | |`
        : `| ${r.engine} | ${r.clients} | ${r.idleMb} → ${r.heldMb} | ${r.perClientKb} | ${r.p50} / ${r.p95} / ${r.max} | ${r.delivered} of ${r.expected} |`,
    ),
  ].join('\n')
}

/** Called by bench/run.ts (scenario "live stream"); printed, and written to docs/performance.md on a full run. */
export async function liveBench(engines: string[], wanted: (scenario: string) => boolean, entry = 'dist/main.js', full = false): Promise<LiveRow[]> {
  if (!wanted('live stream')) return []
  const rows: LiveRow[] = []
  for (const engine of engines) {
    try {
      rows.push(await engineRow(engine as 'sqlite' | 'postgres', entry))
    } catch (err) {
      const msg = `FAILED: ${(err as Error).message.slice(0, 300)}`
      progress(`live stream ${engine} ${msg}`)
      rows.push({ engine, clients: 0, idleMb: 0, heldMb: 0, perClientKb: 0, p50: 0, p95: 0, max: 0, delivered: 0, expected: 0, note: msg })
    }
  }
  const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${pinning.label}, ${new Date().toISOString()}`
  const out =
    `Latest run: ${machine}. The built service (SVC_ROLE=api) on a fresh database holding ${CLIENTS} event streams of one workspace (GET /v2/events/stream, ` +
    `from this process); memory is the server's resident set idle and with them held. Then ${EVENTS} conversations created 100 ms apart, each event timed from ` +
    `the request's start to its arrival on every client.\n\n${table(rows)}`
  process.stdout.write(`\n${out}\n`)
  if (full && rows.every((r) => !r.note)) putPerformanceBlock('live-bench', out)
  return rows
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const engines = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
  const entry = process.env.BENCH_LIVE_ENTRY ?? 'dist/main.js'
  if (entry === 'dist/main.js') execFileSync(process.execPath, ['scripts/build.mjs'], { cwd: ROOT, stdio: 'inherit' })
  const rows = await liveBench(engines, () => true, entry, engines.join(',') === 'sqlite,postgres')
  process.exit(rows.some((r) => r.note) ? 1 : 0)
}
