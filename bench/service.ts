// The small-table scenarios: our hot paths on one engine at BENCH_CONNECTIONS, and webhook delivery.
import type { ChildProcess } from 'node:child_process'
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http'
import { createTestDatabase } from '../test/helpers.js'
import { freePort, svc } from '../test/spawn.js'
import type { BaselineKey } from './baselines.js'
import { apiClient, load, note, peakRssMb, progress, seedConversations, sendMessageLoad, spawnNode, startProcess, stop, type Api, type LoadResult } from './lib.js'

export interface Row {
  engine: string
  scenario: string
  rps: number
  p50: number
  p99: number
  rssMb: number
  /** The baselines this row is a ratio of (req/s over req/s), first the main one. */
  vs: BaselineKey[]
  note?: string
}

export interface Captures {
  list?: Buffer
  members?: Buffer
}

const DELIVERIES = Number(process.env.BENCH_DELIVERIES ?? 2000)

export const serviceEnv = (port: number): Record<string, string> => ({
  PORT: String(port),
  HOST: '127.0.0.1',
  LOG_LEVEL: 'warn',
  RATE_LIMIT_PER_MINUTE: '100000000',
  WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
  WEBHOOK_RETRY_SCHEDULE: '1,1,1',
})

/** A response body as the service sends it, checked to be the JSON we compare against. */
async function capture(url: string, headers: Record<string, string>): Promise<Buffer> {
  const r = await fetch(url, { headers })
  const type = r.headers.get('content-type')
  if (r.status !== 200 || type !== 'application/json; charset=utf-8') throw new Error(`capture ${url}: ${r.status} ${type}`)
  return Buffer.from(await r.arrayBuffer())
}

export async function smallTables(engine: string, wanted: (scenario: string) => boolean): Promise<{ rows: Row[]; captures: Captures }> {
  const rows: Row[] = []
  const captures: Captures = {}
  const db = await createTestDatabase(engine as 'sqlite' | 'postgres')
  const port = await freePort()
  const env = { ...db.env, ...serviceEnv(port) }
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Bench', '--json'], db.env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)).key as string
  // Webhook benchmarks run in the sandbox, where http:// receivers are allowed (live requires https).
  const testKey = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--sandbox', '--json'], db.env)).key as string
  if (wanted('cold start')) rows.push({ engine, ...(await coldStart(env, key)) })
  const child = await startProcess(['dist/main.js'], env, `http://127.0.0.1:${port}/livez`)
  try {
    const url = `http://127.0.0.1:${port}`
    const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
    const api = apiClient(url, key)
    const record = async (scenario: string, vs: BaselineKey[], run: () => Promise<LoadResult>) => {
      if (!wanted(scenario)) return
      const r = await run()
      progress(`${engine} ${scenario}: ${r.rps} req/s, p99 ${r.p99} ms`)
      rows.push({ engine, scenario, rps: r.rps, p50: r.p50, p99: r.p99, rssMb: peakRssMb(child.pid!), vs, note: note(r) })
    }

    // Seed: members for the list, conversations with messages for the inbox paths.
    for (let i = 0; i < 30; i++) await api('POST', `/v2/workspaces/${ws.id}/members`, { email: `bench${i}@example.com` })
    const conversations = await seedConversations(api)
    const conv = conversations[0]
    const membersUrl = `${url}/v2/workspaces/${ws.id}/members?limit=20`
    const listUrl = `${url}/v2/inbox/conversations?limit=20`
    captures.members = await capture(membersUrl, headers)
    captures.list = await capture(listUrl, headers)

    await load({ url: `${url}/v2/workspaces/current`, headers, duration: 2 })
    await record('GET /v2/workspaces/current (getCurrentWorkspace)', ['hello'], () => load({ url: `${url}/v2/workspaces/current`, headers }))
    await record('GET /v2/workspaces/{id}/members?limit=20 (listWorkspaceMembers)', ['members-bytes'], () => load({ url: membersUrl, headers }))
    await record('GET /v2/inbox/conversations?limit=20 (listConversations)', ['list-bytes'], () => load({ url: listUrl, headers }))
    await record('GET /v2/inbox/conversations/{id} (getConversation)', ['hello', 'sqlite-read'], () => load({ url: `${url}/v2/inbox/conversations/${conv}`, headers }))
    await record('POST /v2/inbox/conversations/{id}/messages + Idempotency-Key (sendMessage, 60 conversations)', ['hello'], () => load(sendMessageLoad(url, headers, conversations, 'bench')))
    await record('POST /v2/inbox/conversations (createConversation)', ['hello'], () =>
      load({ url: `${url}/v2/inbox/conversations`, method: 'POST', headers, body: JSON.stringify({ channel: 'api', contact: { name: 'Load' } }) }),
    )
    if (wanted('webhook deliveries')) {
      const sandbox: Api = (m, p, b) => api(m, p.replace(/^\/v2\//, '/sandbox/v2/'), b, testKey)
      rows.push(...(await webhooks(engine, sandbox, child, env, testKey)))
    }
  } finally {
    await stop(child)
    await db.drop()
  }
  return { rows, captures }
}

/**
 * Event → first attempt latency on the running all-role server; then deliveries per second: an API-only
 * node queues BENCH_DELIVERIES events, and a worker process started afterwards drains them (so the number
 * is the worker's delivery throughput, not the API's event creation rate).
 */
async function webhooks(engine: string, api: Api, child: ChildProcess, env: Record<string, string>, testKey: string): Promise<Row[]> {
  const rows: Row[] = []
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
  rows.push({ engine, scenario: 'event → first delivery attempt (ms, 50 sequential events)', rps: 0, p50: pct(50), p99: pct(99), rssMb: peakRssMb(child.pid!), vs: [] })
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
  const worker = spawnNode(['dist/main.js'], { ...env, SVC_ROLE: 'worker' }, 'ignore')
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
    vs: [],
  })
  await stop(worker)
  await stop(apiNode)
  receiver.close()
  return rows
}

/** Process start to the first authenticated 200 (`npm start`'s entry point, migrations already applied): median of three. */
async function coldStart(env: Record<string, string>, key: string): Promise<Omit<Row, 'engine'>> {
  const times: number[] = []
  let rssMb = 0
  for (let i = 0; i < 3; i++) {
    const t0 = performance.now()
    const child = spawnNode(['dist/main.js'], env, 'ignore')
    const url = `http://127.0.0.1:${env.PORT}/v2/workspaces/current`
    for (;;) {
      // A process killed by a signal (an out-of-memory abort) keeps exitCode null: signalCode says so.
      if (child.exitCode !== null || child.signalCode !== null) throw new Error(`cold start: the service exited (${child.exitCode ?? child.signalCode})`)
      if (performance.now() - t0 > 60_000) throw new Error('cold start: no authenticated 200 within 60 s')
      try {
        if ((await fetch(url, { headers: { authorization: `Bearer ${key}` } })).status === 200) break
      } catch {
        /* not listening yet */
      }
      await new Promise((r) => setTimeout(r, 5))
    }
    times.push(Math.round(performance.now() - t0))
    rssMb = Math.max(rssMb, peakRssMb(child.pid!))
    await stop(child)
  }
  times.sort((a, b) => a - b)
  progress(`cold start: ${times.join(', ')} ms`)
  return { scenario: 'cold start → first authenticated 200 (ms; p50 = median of 3, p99 column = slowest)', rps: 0, p50: times[1], p99: times[2], rssMb, vs: [] }
}
