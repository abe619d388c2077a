// The soak row (issue 36): BENCH_SOAK_MINUTES (default 10) of mixed operations against one built service
// process started as `npm start` starts it (its heap flags included), its resident set sampled every second;
// the result is the growth from the end of the warm-up (the first fifth, at least 30 s) to the end.
// `BENCH_ONLY=soak BENCH_SOAK_MINUTES=1 npm run bench` for a short proof; part of a full run.
import { readFileSync } from 'node:fs'
import type autocannon from 'autocannon'
import { createTestDatabase } from '../test/helpers.js'
import { freePort, svc } from '../test/spawn.js'
import { apiClient, load, progress, putPerformanceBlock, seedConversations, startProcess, stop } from './lib.js'
import { serviceEnv } from './service.js'

export interface SoakResult {
  engine: string
  minutes: number
  requests: number
  non2xx: number
  /** Responses by status and the transport errors (timeouts, resets): what the non-2xx were. */
  statuses: Record<number, number>
  errors: number
  /** MB: after the warm-up, at the end, the highest sample, and the growth in %. */
  warm: number
  end: number
  max: number
  growthPct: number
  p99: number
  /** The process's own account (its /metrics) after the warm-up and at the end: what grew, heap or native. */
  memory: { warm: MemoryAccount | null; end: MemoryAccount | null }
}

/** MB: V8's heap (used, and reserved), memory V8 tracks outside it (Buffers), and the rest of the RSS. */
export interface MemoryAccount {
  rss: number
  heapUsed: number
  heapTotal: number
  external: number
  /** RSS less the heap's reservation: code, the SQLite page cache and statements, malloc's arenas, threads. */
  native: number
  /** Major (mark-compact) collections so far, and their total seconds. */
  majorGcs: number
  majorGcSeconds: number
}

/** Reads the process's default metrics (prom-client) from /metrics: loopback needs no token. */
async function memoryAccount(url: string): Promise<MemoryAccount | null> {
  try {
    const text = await (await fetch(`${url}/metrics`)).text()
    const value = (name: string) => Number(new RegExp(`^${name} ([0-9.e+-]+)`, 'm').exec(text)?.[1] ?? NaN)
    const mb = (bytes: number) => Math.round((bytes / 1048576) * 10) / 10
    const rss = value('svc_process_resident_memory_bytes')
    const heapTotal = value('svc_nodejs_heap_size_total_bytes')
    return {
      rss: mb(rss),
      heapUsed: mb(value('svc_nodejs_heap_size_used_bytes')),
      heapTotal: mb(heapTotal),
      external: mb(value('svc_nodejs_external_memory_bytes')),
      native: mb(rss - heapTotal),
      majorGcs: value('svc_nodejs_gc_duration_seconds_count\\{kind="major"\\}'),
      majorGcSeconds: Math.round(value('svc_nodejs_gc_duration_seconds_sum\\{kind="major"\\}') * 100) / 100,
    }
  } catch {
    return null
  }
}

const rssMb = (pid: number): number => {
  const m = /VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
  return m ? Number(m[1]) / 1024 : 0
}

/** Every request of the mix, in turn: reads and writes of the inbox, the workspace, a list, a search. */
function mixedRequests(headers: Record<string, string>, conversations: string[]): autocannon.Request[] {
  let n = 0
  const conv = () => conversations[n % conversations.length]
  const json = { ...headers, 'content-type': 'application/json' }
  const steps: ((req: autocannon.Request) => autocannon.Request)[] = [
    (r) => ({ ...r, method: 'GET', path: '/v2/workspaces/current', headers }),
    (r) => ({ ...r, method: 'GET', path: '/v2/inbox/conversations?limit=20', headers }),
    (r) => ({ ...r, method: 'GET', path: `/v2/inbox/conversations/${conv()}`, headers }),
    (r) => ({ ...r, method: 'GET', path: `/v2/inbox/conversations/${conv()}/messages?limit=20`, headers }),
    (r) => ({
      ...r,
      method: 'POST',
      path: `/v2/inbox/conversations/${conv()}/messages`,
      headers: { ...json, 'idempotency-key': `soak-${process.pid}-${n}` },
      body: JSON.stringify({ content: `Reply ${n}: the pro plan is 49 EUR per month.` }),
    }),
    (r) => ({ ...r, method: 'POST', path: '/v2/inbox/conversations', headers: json, body: JSON.stringify({ contact: { name: `Soak ${n}` }, message: { content: 'Hello' } }) }),
    (r) => ({ ...r, method: 'GET', path: '/v2/inbox/search?q=plan&limit=10', headers }),
    (r) => ({ ...r, method: 'GET', path: '/v2/inbox/conversations?status=open&order=last_activity&limit=20', headers }),
  ]
  return [{ setupRequest: (req) => steps[n++ % steps.length](req) as never }]
}

export async function soak(engine: 'sqlite' | 'postgres', minutes: number): Promise<SoakResult> {
  const db = await createTestDatabase(engine)
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Soak', '--json'], db.env)) as { id: string }
  const key = (JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)) as { key: string }).key
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const child = await startProcess(['dist/main.js'], { ...db.env, ...serviceEnv(port), SVC_ROLE: 'all' }, `${url}/livez`)
  const samples: { t: number; mb: number }[] = []
  const started = Date.now()
  // A process that dies under the load ends the row with its exit and its last words, not a sampler's ENOENT.
  let tail = ''
  const keep = (d: Buffer) => (tail = (tail + d.toString()).slice(-4000))
  child.stdout?.on('data', keep)
  child.stderr?.on('data', keep)
  let died = null as string | null
  child.on('exit', (code, signal) => (died = `exited (code ${code}, signal ${signal}) after ${Math.round((Date.now() - started) / 1000)} s`))
  const timer = setInterval(() => {
    if (died === null) samples.push({ t: Date.now() - started, mb: rssMb(child.pid!) })
  }, 1000)
  const warmUntil = Math.max(30_000, (minutes * 60_000) / 5)
  let warmAccount: Promise<MemoryAccount | null> = Promise.resolve(null)
  const warmTimer = setTimeout(() => {
    warmAccount = memoryAccount(url)
  }, warmUntil)
  try {
    const api = apiClient(url, key)
    const conversations = await seedConversations(api, 60)
    // The compliance worker makes the evidence reports at its 10-minute slot, which a 10-minute soak always
    // crosses: their first rendering (PDF, the report code) raises the resident set once, by ~25 MB, and the
    // later ones add nothing (docs/performance.md, "The soak's step"). Made once before the load, they are
    // part of the warm-up wherever the slot falls.
    for (const kind of ['audit_chain', 'access_review', 'retention', 'dsar_timeliness']) await api('POST', '/v2/compliance/evidence', { kind })
    const headers = { authorization: `Bearer ${key}` }
    progress(`soak ${engine}: ${minutes} min of mixed operations`)
    const r = await load({ url, duration: Math.round(minutes * 60), requests: mixedRequests(headers, conversations) })
    if (died !== null) throw new Error(`soak ${engine}: the service ${died}; its last output:\n${tail}`)
    const memory = { warm: await warmAccount, end: await memoryAccount(url) }
    const after = samples.filter((s) => s.t >= warmUntil)
    const first = after[0]?.mb ?? samples[0]?.mb ?? 0
    const last = samples.at(-1)?.mb ?? 0
    const round = (v: number) => Math.round(v)
    return {
      engine,
      minutes,
      requests: r.times.length,
      non2xx: r.non2xx + r.errors,
      statuses: r.statuses ?? {},
      errors: r.errors,
      warm: round(first),
      end: round(last),
      max: round(Math.max(...after.map((s) => s.mb), 0)),
      growthPct: first ? Math.round(((last - first) / first) * 1000) / 10 : 0,
      p99: r.p99,
      memory,
    }
  } finally {
    clearInterval(timer)
    clearTimeout(warmTimer)
    await stop(child)
    await db.drop()
  }
}

export async function soakBench(engines: string[], wanted: (s: string) => boolean, full: boolean): Promise<void> {
  if (!wanted('soak')) return
  const minutes = Number(process.env.BENCH_SOAK_MINUTES ?? 10)
  if (!(minutes > 0)) return
  const results: SoakResult[] = []
  for (const engine of engines) {
    const r = await soak(engine as 'sqlite' | 'postgres', minutes)
    process.stdout.write(`soak ${engine}: ${JSON.stringify(r)}\n`)
    results.push(r)
  }
  if (!full) return
  const rows = results.map(
    (r) =>
      `| ${r.engine} | ${r.minutes} | ${r.requests} | ${r.non2xx} | ${r.warm} → ${r.end} | ${r.max} | ${r.growthPct > 0 ? '+' : ''}${r.growthPct} %${Math.abs(r.growthPct) > 10 ? ' ⚠' : ''} | ${r.p99} |`,
  )
  putPerformanceBlock(
    'soak-bench',
    [
      `Latest soak (\`npm run bench\`, ${new Date().toISOString()}): one built service process (role all, started as \`npm start\` starts it), 50 connections of mixed operations in turn (getCurrentWorkspace, listConversations, getConversation, listMessages, sendMessage + Idempotency-Key, createConversation with a message, searchInbox, listConversations ?status=open&order=last_activity), after the four compliance evidence reports are made once; RSS sampled every second, growth from the end of the warm-up (the first fifth, at least 30 s) to the end (goal ±10 %).`,
      '',
      '| engine | minutes | requests | non-2xx | RSS MB after warm-up → end | max RSS MB after warm-up | growth | p99 ms |',
      '|---|---:|---:|---:|---|---:|---:|---:|',
      ...rows,
    ].join('\n'),
  )
}
