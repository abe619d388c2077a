/**
 * npm run bench — one command, one process tree, one run:
 *   the baseline (bare Fastify route) and the hot paths of the service on SQLite and on PostgreSQL,
 *   at a fixed concurrency, with req/s, p50/p99, peak RSS of the server and the ratio to the baseline;
 *   webhook deliveries per second to a local receiver and event → first attempt latency.
 * Writes the table to docs/performance.md. Not part of npm test.
 *
 * BENCH_DURATION (seconds per scenario, default 8), BENCH_CONNECTIONS (default 50),
 * BENCH_ENGINES (default "sqlite,postgres"), BENCH_DELIVERIES (default 2000); PostgreSQL and Redis as
 * for the tests (TEST_PG_URL, TEST_REDIS_URL).
 */
import autocannon from 'autocannon'
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { cpus, totalmem } from 'node:os'
import { createTestDatabase } from '../test/helpers.js'
import { freePort, svc } from '../test/spawn.js'

const DURATION = Number(process.env.BENCH_DURATION ?? 8)
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
const ENGINES = (process.env.BENCH_ENGINES ?? 'sqlite,postgres').split(',')
const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2000)
/** Only the scenarios whose name matches (a regular expression), e.g. BENCH_ONLY=sendMessage for an A/B run. */
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY) : null
const wanted = (scenario: string) => !ONLY || ONLY.test(scenario)
const ROOT = new URL('..', import.meta.url).pathname

interface Row {
  engine: string
  scenario: string
  rps: number
  p50: number
  p99: number
  rssMb: number
  ratio: number | null
  note?: string
}
const rows: Row[] = []

function peakRssMb(pid: number): number {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8')
    const m = /VmHWM:\s+(\d+) kB/.exec(status)
    return m ? Math.round(Number(m[1]) / 1024) : 0
  } catch {
    return 0
  }
}

async function startProcess(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  // The service runs as `npm start` does: compiled JavaScript (npm run bench builds it first).
  const child = spawn(process.execPath, args[0].endsWith('.js') ? args : ['--import', 'tsx', ...args], { cwd: ROOT, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`process exited: ${out}`)
    try {
      if ((await fetch(readyUrl)).status < 500) return child
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`process did not start: ${out}`)
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const done = new Promise((r) => child.on('exit', r))
  child.kill('SIGTERM')
  await done
}

async function load(opts: autocannon.Options): Promise<{ rps: number; p50: number; p99: number; errors: number; non2xx: number }> {
  const r = await autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts })
  return { rps: Math.round(r.requests.average), p50: r.latency.p50, p99: r.latency.p99, errors: r.errors + r.timeouts, non2xx: r.non2xx }
}

async function baseline(): Promise<number> {
  const port = await freePort()
  const child = await startProcess(['bench/bare-server.ts'], { PORT: String(port) }, `http://127.0.0.1:${port}/hello`)
  await load({ url: `http://127.0.0.1:${port}/hello`, duration: 2 }) // warm-up
  const r = await load({ url: `http://127.0.0.1:${port}/hello` })
  rows.push({ engine: '—', scenario: 'bare Fastify GET /hello (baseline)', rps: r.rps, p50: r.p50, p99: r.p99, rssMb: peakRssMb(child.pid!), ratio: 1 })
  await stop(child)
  return r.rps
}

async function service(engine: string, base: number): Promise<void> {
  const db = await createTestDatabase(engine as 'sqlite' | 'postgres')
  const port = await freePort()
  const env = { ...db.env, PORT: String(port), HOST: '127.0.0.1', LOG_LEVEL: 'warn', RATE_LIMIT_PER_MINUTE: '100000000', WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true', WEBHOOK_RETRY_SCHEDULE: '1,1,1' }
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Bench', '--json'], db.env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)).key as string
  // Webhook benchmarks run in the sandbox, where http:// receivers are allowed (live requires https).
  const testKey = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--sandbox', '--json'], db.env)).key as string
  const child = await startProcess(['dist/main.js'], env, `http://127.0.0.1:${port}/livez`)
  const url = `http://127.0.0.1:${port}`
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  const api = async (method: string, path: string, body?: unknown, k = key) => {
    const r = await fetch(url + path, { method, headers: { ...headers, authorization: `Bearer ${k}` }, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await r.text()
    if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${text}`)
    return JSON.parse(text)
  }
  const record = async (scenario: string, run: () => ReturnType<typeof load>) => {
    if (!wanted(scenario)) return
    const r = await run()
    rows.push({ engine, scenario, rps: r.rps, p50: r.p50, p99: r.p99, rssMb: peakRssMb(child.pid!), ratio: Math.round((r.rps / base) * 100) / 100, note: r.errors || r.non2xx ? `${r.errors} errors, ${r.non2xx} non-2xx` : undefined })
  }

  // Seed: members for the list, conversations with messages for the inbox paths.
  for (let i = 0; i < 30; i++) await api('POST', `/v2/workspaces/${ws.id}/members`, { email: `bench${i}@example.com` })
  const conversations: string[] = []
  for (let i = 0; i < 60; i++) {
    const c = await api('POST', '/v2/inbox/conversations', { channel: 'chat', contact: { name: `Contact ${i}`, email: `c${i}@example.com` }, message: { content: 'Hello, what does the pro plan cost?' } })
    conversations.push(c.id)
  }
  const conv = conversations[0]

  await load({ url: `${url}/v2/workspaces/current`, headers, duration: 2 })
  await record('GET /v2/workspaces/current (getCurrentWorkspace)', () => load({ url: `${url}/v2/workspaces/current`, headers }))
  await record('GET /v2/workspaces/{id}/members?limit=20 (listWorkspaceMembers)', () => load({ url: `${url}/v2/workspaces/${ws.id}/members?limit=20`, headers }))
  await record('GET /v2/inbox/conversations?limit=20 (listConversations)', () => load({ url: `${url}/v2/inbox/conversations?limit=20`, headers }))
  await record('GET /v2/inbox/conversations/{id} (getConversation)', () => load({ url: `${url}/v2/inbox/conversations/${conv}`, headers }))
  let n = 0
  await record(
    'POST /v2/inbox/conversations/{id}/messages + Idempotency-Key (sendMessage, 60 conversations)',
    () =>
      load({
        url: `${url}/v2/inbox/conversations/${conv}/messages`,
        method: 'POST',
        headers,
        body: JSON.stringify({ content: 'Thanks, the pro plan is 49 EUR per month.' }),
        // A fresh Idempotency-Key per request (every request is a new message), spread over the seeded
        // conversations as an inbox's traffic is: 50 writers on one conversation would measure its row lock.
        requests: [
          {
            setupRequest: (req: any) => ({
              ...req,
              path: `/v2/inbox/conversations/${conversations[n % conversations.length]}/messages`,
              headers: { ...headers, 'idempotency-key': `bench-${process.pid}-${n++}` },
            }),
          },
        ],
      }),
  )
  await record(
    'POST /v2/inbox/conversations (createConversation)',
    () =>
      load({ url: `${url}/v2/inbox/conversations`, method: 'POST', headers, body: JSON.stringify({ channel: 'api', contact: { name: 'Load' } }) }),
  )
  if (wanted('webhook deliveries')) await webhooks(engine, (m, p, b) => api(m, p.replace(/^\/v2\//, '/sandbox/v2/'), b, testKey), child, env, testKey)
  await db.drop()
}

/** Deliveries per second to a local receiver, and event → first attempt latency. */
/**
 * Event → first attempt latency on the running all-role server; then deliveries per second: an API-only
 * node queues BENCH_DELIVERIES events, and a worker process started afterwards drains them (so the number
 * is the worker's delivery throughput, not the API's event creation rate).
 */
async function webhooks(
  engine: string,
  api: (m: string, p: string, b?: unknown) => Promise<any>,
  child: ChildProcess,
  env: Record<string, string>,
  testKey: string,
): Promise<void> {
  const arrivals = new Map<string, number>()
  let lastAt = 0
  const receiver = createServer((req: IncomingMessage, res: ServerResponse) => {
    req.resume()
    req.on('end', () => {
      const id = String(req.headers['svc-event-id'])
      const now = performance.now()
      if (!arrivals.has(id)) arrivals.set(id, now)
      lastAt = now
      res.writeHead(204).end()
    })
  })
  const rport = await freePort()
  await new Promise<void>((r) => receiver.listen(rport, '127.0.0.1', r))
  const endpoint = await api('POST', '/v2/webhooks/endpoints', { url: `http://127.0.0.1:${rport}/hook` })

  // Latency: one event at a time, from the API answer to the receiver's first byte.
  const latencies: number[] = []
  for (let i = 0; i < 50; i++) {
    const t0 = performance.now()
    const d = await api('POST', `/v2/webhooks/endpoints/${endpoint.id}/test`, {})
    const eventId = d.event_id
    for (let w = 0; w < 500 && !arrivals.has(eventId); w++) await new Promise((r) => setTimeout(r, 1))
    if (arrivals.has(eventId)) latencies.push(arrivals.get(eventId)! - t0)
  }
  latencies.sort((a, b) => a - b)
  const pct = (p: number) => Math.round((latencies[Math.min(latencies.length - 1, Math.floor((p / 100) * latencies.length))] ?? 0) * 10) / 10
  rows.push({ engine, scenario: 'event → first delivery attempt (ms, 50 sequential events)', rps: 0, p50: pct(50), p99: pct(99), rssMb: peakRssMb(child.pid!), ratio: null })
  await stop(child)

  // Throughput: queue events with an API-only node, then let a fresh worker drain them.
  arrivals.clear()
  const port = await freePort()
  const apiNode = await startProcess(['dist/main.js'], { ...env, PORT: String(port), SVC_ROLE: 'api' }, `http://127.0.0.1:${port}/livez`)
  const headers = { authorization: `Bearer ${testKey}`, 'content-type': 'application/json' }
  for (let i = 0; i < DELIVERIES; i += 50) {
    await Promise.all(
      Array.from({ length: Math.min(50, DELIVERIES - i) }, () =>
        fetch(`http://127.0.0.1:${port}/sandbox/v2/webhooks/endpoints/${endpoint.id}/test`, { method: 'POST', headers, body: '{}' }).then((r) => r.text()),
      ),
    )
  }
  const worker = spawn(process.execPath, ['dist/main.js'], { cwd: ROOT, env: { ...process.env, ...env, SVC_ROLE: 'worker' }, stdio: 'ignore' })
  const t0 = performance.now()
  let firstAt = 0
  for (let w = 0; w < 12000 && arrivals.size < DELIVERIES; w++) {
    if (!firstAt && arrivals.size > 0) firstAt = performance.now()
    await new Promise((r) => setTimeout(r, 5))
  }
  // From the first delivery to the last: worker start-up (module load, migrations check) excluded.
  const seconds = (lastAt - (firstAt || t0)) / 1000
  rows.push({
    engine,
    scenario: `webhook deliveries/s, one worker draining ${DELIVERIES} queued events (${arrivals.size} delivered)`,
    rps: Math.round(arrivals.size / seconds),
    p50: 0,
    p99: 0,
    rssMb: peakRssMb(worker.pid!),
    ratio: null,
  })
  await stop(worker)
  await stop(apiNode)
  receiver.close()
}

function table(): string {
  const head = '| engine | scenario | req/s | p50 ms | p99 ms | peak RSS MB | × baseline |\n|---|---|---:|---:|---:|---:|---:|'
  const body = rows.map((r) => `| ${r.engine} | ${r.scenario}${r.note ? ` (${r.note})` : ''} | ${r.rps || '—'} | ${r.p50 || '—'} | ${r.p99 || '—'} | ${r.rssMb} | ${r.ratio ?? '—'} |`).join('\n')
  return `${head}\n${body}`
}

const base = await baseline()
for (const engine of ENGINES) {
  try {
    await service(engine, base)
  } catch (err) {
    rows.push({ engine, scenario: `FAILED: ${(err as Error).message.slice(0, 200)}`, rps: 0, p50: 0, p99: 0, rssMb: 0, ratio: null })
  }
}
const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, ${new Date().toISOString()}`
const out = table()
process.stdout.write(`\n${machine}\n${CONNECTIONS} connections, ${DURATION} s per scenario\n\n${out}\n`)
const docPath = new URL('../docs/performance.md', import.meta.url)
let doc = ''
try {
  doc = readFileSync(docPath, 'utf8')
} catch {
  doc = '# Performance\n\n<!-- bench:start -->\n<!-- bench:end -->\n'
}
const block = `<!-- bench:start -->\nLatest \`npm run bench\`: ${machine}; ${CONNECTIONS} connections, ${DURATION} s per scenario.\n\n${out}\n<!-- bench:end -->`
doc = doc.includes('<!-- bench:start -->') ? doc.replace(/<!-- bench:start -->[\s\S]*<!-- bench:end -->/, block) : `${doc}\n${block}\n`
// A partial run (BENCH_ONLY) prints its rows but leaves the published table alone.
if (!ONLY) writeFileSync(docPath, doc)
process.exit(0)
