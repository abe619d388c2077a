// "Flat cost at scale": the same read and write paths on a small workspace and on one with a million
// conversations (BENCH_SCALE=1), bulk-seeded by SQL; p95 at scale over p95 small (goal ≤ 1.5×).
import { randomBytes } from 'node:crypto'
import { createTestDatabase } from '../test/helpers.js'
import { freePort, svc } from '../test/spawn.js'
import { deriveKey } from '../src/kernel/crypto/server-secret.js'
import { Paginator } from '../src/kernel/http/pagination.js'
import { apiClient, combine, DURATION, load, note, progress, startProcess, stop, type LoadResult } from './lib.js'
import { conversationId, isMeasured, seed, seedBase, shapeFor, type SeedRefs, type SeedShape } from './seed.js'
import { serviceEnv } from './service.js'
import { memberTokens, setPassword } from './member-session.js'

/** Latency is the measure here, not throughput: enough connections to keep the server busy, few enough not to queue. */
export const SCALE_CONNECTIONS = 10
/** The small size: the same shape at a thousandth of the default scale. */
const SMALL = 0.001

export interface ScaleRow {
  engine: string
  scenario: string
  small: LoadResult
  big: LoadResult
  note?: string
}

export interface ScaleResult {
  rows: ScaleRow[]
  /** Seconds to seed each size. */
  seeding: { small: number; big: number }
  shape: SeedShape
}

interface Scenario {
  name: string
  run(seconds: number): Promise<LoadResult>
}

/** A seeded database with the service running on it, ready to be measured. */
interface Size {
  seconds: number
  scenarios: Scenario[]
  warmUp(): Promise<unknown>
  close(): Promise<void>
}

/** Seeds one size into a fresh database and starts the service on it. */
async function prepare(engine: 'sqlite' | 'postgres', shape: SeedShape): Promise<Size> {
  const db = await createTestDatabase(engine)
  const secret = randomBytes(32).toString('base64url')
  const port = await freePort()
  const env = { ...db.env, ...serviceEnv(port), SERVER_SECRET: secret }
  const url = `http://127.0.0.1:${port}`
  const start = () => startProcess(['dist/main.js'], env, `${url}/livez`)
  let child: Awaited<ReturnType<typeof start>> | null = null
  const close = async () => {
    if (child) await stop(child)
    await db.drop()
  }
  try {
    const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Scale', '--json'], env))
    const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], env)).key as string
    const api = apiClient(url, key)
    // The few rows the bulk rows point at go through the API, as a user would create them.
    child = await start()
    const members: string[] = []
    for (let i = 0; i < 5; i++) {
      const m = await api('POST', `/v2/workspaces/${ws.id}/members`, { email: `agent${i}@example.com` })
      await api('PATCH', `/v2/workspaces/${ws.id}/members/${m.id}`, { status: 'active' })
      members.push(m.id)
    }
    // A member with a dashboard session: the credential of read state, `assignee=me` and the counts.
    setPassword('agent1@example.com', env)
    const tag = async (name: string) => (await api('POST', '/v2/inbox/tags', { name })).id as string
    const tags = { vip: await tag('vip'), billing: await tag('billing') }
    const endpoint = await api('POST', '/v2/webhooks/endpoints', { url: 'https://hooks.example.invalid/bench', enabled: false })
    await stop(child)
    child = null

    const base = seedBase()
    const refs: SeedRefs = { workspaceId: ws.id, members, tags, endpointId: endpoint.id }
    const seconds = await seed(env, refs, shape, base)
    progress(`scale ${engine}: seeded ${shape.conversations} conversations in ${seconds} s`)
    child = await start()
    const middle = conversationId(Math.floor((shape.conversations + shape.otherWorkspaces * shape.perOther) / 2), base)
    const cursor = await deepCursor(secret, ws.id, middle)
    const deep = await api('GET', `/v2/inbox/conversations?limit=20&cursor=${cursor}`)
    if (!(deep.data[0]?.id < middle)) throw new Error(`the deep page does not start after ${middle}`)
    const warmUp = () => load({ url: `${url}/v2/inbox/conversations?limit=20`, headers: { authorization: `Bearer ${key}` }, duration: 2, connections: SCALE_CONNECTIONS })
    const mint = await memberTokens(url, 'agent1@example.com', ws.id)
    // A rare search word: the e-mail of the conversation half-way (its row number, as the seed writes it).
    const rare = `c${Math.floor(shape.conversations / 2) + 1}`
    return { seconds, scenarios: scenarios(url, key, refs, shape, base, cursor, mint, rare), warmUp, close }
  } catch (err) {
    await close()
    throw err
  }
}

function scenarios(url: string, key: string, refs: SeedRefs, shape: SeedShape, base: number, deepCursor: string, mint: () => Promise<string>, rare: string): Scenario[] {
  const headers = { authorization: `Bearer ${key}`, 'content-type': 'application/json' }
  // A fresh member token per run (they last 10 minutes).
  const asMember = (path: string) => async (duration: number) => load({ url: url + path, headers: { authorization: `Bearer ${await mint()}` }, connections: SCALE_CONNECTIONS, duration })
  const hourAgo = new Date(Date.now() - 3600_000).toISOString()
  const get = (path: string) => (duration: number) => load({ url: url + path, headers, connections: SCALE_CONNECTIONS, duration })
  // Random conversations all over the workspace (cold pages at scale, as real traffic finds them).
  const rows = shape.conversations + shape.otherWorkspaces * shape.perOther
  const randomIds: string[] = []
  while (randomIds.length < 5000) {
    const c = 1 + Math.floor(Math.random() * rows)
    if (isMeasured(c, shape)) randomIds.push(conversationId(c, base))
  }
  let n = 0
  const rotating = (method: 'GET' | 'POST', path: (id: string) => string, body?: unknown) => (duration: number) =>
    load({
      url: url + path(randomIds[0]),
      duration,
      method,
      headers,
      connections: SCALE_CONNECTIONS,
      body: body === undefined ? undefined : JSON.stringify(body),
      requests: [
        {
          setupRequest: (req: any) => {
            const i = n++
            return { ...req, path: path(randomIds[i % randomIds.length]), headers: method === 'POST' ? { ...headers, 'idempotency-key': `scale-${process.pid}-${i}` } : headers }
          },
        },
      ],
    })
  return [
    { name: 'listConversations, first page', run: get('/v2/inbox/conversations?limit=20') },
    { name: 'listConversations, deep page (cursor half-way)', run: get(`/v2/inbox/conversations?limit=20&cursor=${deepCursor}`) },
    { name: 'listConversations ?status=pending', run: get('/v2/inbox/conversations?limit=20&status=pending') },
    { name: 'listConversations ?assignee=<member>', run: get(`/v2/inbox/conversations?limit=20&assignee=${refs.members[1]}`) },
    { name: 'listConversations ?tag=vip', run: get('/v2/inbox/conversations?limit=20&tag=vip') },
    { name: 'listConversations ?channel=email', run: get('/v2/inbox/conversations?limit=20&channel=email') },
    { name: 'getConversation (random ids)', run: rotating('GET', (id) => `/v2/inbox/conversations/${id}`) },
    // Issue 31: the inbox as agents work it.
    { name: 'listConversations ?order=last_activity', run: get('/v2/inbox/conversations?limit=20&order=last_activity') },
    { name: 'listConversations ?order=last_activity&status=open (member: unread_count)', run: asMember('/v2/inbox/conversations?limit=20&order=last_activity&status=open') },
    { name: 'listConversations ?order=last_activity&assignee=me (member)', run: asMember('/v2/inbox/conversations?limit=20&order=last_activity&assignee=me') },
    { name: 'listConversations ?order=last_activity&unread=true (member)', run: asMember('/v2/inbox/conversations?limit=20&order=last_activity&unread=true') },
    { name: 'getInboxCounts (member; capped at 100)', run: asMember('/v2/inbox/counts') },
    { name: 'searchInbox ?q=demo (a word in a quarter of the messages)', run: get('/v2/inbox/search?limit=20&q=demo') },
    { name: 'searchInbox ?q=pro pl (two words, the last a prefix)', run: get(`/v2/inbox/search?limit=20&q=${encodeURIComponent('pro pl')}`) },
    { name: 'searchInbox ?q=<one contact> (a rare word)', run: get(`/v2/inbox/search?limit=20&q=${rare}`) },
    { name: 'listWebhookDeliveries', run: get('/v2/webhooks/deliveries?limit=20') },
    { name: 'listWebhookDeliveries ?status=failed', run: get('/v2/webhooks/deliveries?limit=20&status=failed') },
    { name: 'sendMessage + Idempotency-Key (random conversations)', run: rotating('POST', (id) => `/v2/inbox/conversations/${id}/messages`, { content: 'Thanks, the pro plan is 49 EUR per month.' }) },
    // A sync client's question after that traffic: the seed is weeks old, so only the conversations the
    // messages above touched match, scattered over the whole list.
    { name: 'listConversations ?updated_after=<1 h ago>, after sendMessage', run: get(`/v2/inbox/conversations?limit=20&updated_after=${encodeURIComponent(hourAgo)}`) },
  ]
}

/**
 * The cursor the service hands out after `afterId` on the unfiltered list: the bench knows the server
 * secret, so it need not page through half a million conversations to get one.
 */
async function deepCursor(secret: string, workspaceId: string, afterId: string): Promise<string> {
  const page = await new Paginator(deriveKey(Buffer.from(secret, 'utf8'), 'cursor')).paginate({
    list: 'listConversations',
    tenant: { workspaceId, mode: 'live' },
    query: { limit: 1 },
    fetch: async () => [afterId, afterId],
    key: (id) => id,
    view: (id) => id,
  })
  return page.next_cursor!
}

/**
 * Both sizes run side by side and each scenario runs in turns, small, at scale, small, at scale, half the
 * duration each: on a shared machine the two figures of a ratio see the same background load.
 */
export async function scaleScenario(engine: 'sqlite' | 'postgres', scale: number, wanted: (s: string) => boolean): Promise<ScaleResult> {
  const shape = shapeFor(scale)
  const small = await prepare(engine, shapeFor(SMALL))
  try {
    const big = await prepare(engine, shape)
    try {
      await small.warmUp()
      await big.warmUp()
      const rows: ScaleRow[] = []
      for (const [i, { name }] of small.scenarios.entries()) {
        if (!wanted(name)) continue
        const runs: { small: LoadResult[]; big: LoadResult[] } = { small: [], big: [] }
        for (let turn = 0; turn < 2; turn++) {
          runs.small.push(await small.scenarios[i].run(DURATION / 2))
          runs.big.push(await big.scenarios[i].run(DURATION / 2))
        }
        const r = { small: combine(runs.small), big: combine(runs.big) }
        const bad = [r.small, r.big].map(note).filter(Boolean)
        progress(`scale ${engine}: ${name}: p95 ${r.small.p95} → ${r.big.p95} ms${bad.length ? ` (${bad.join('; ')})` : ''}`)
        rows.push({ engine, scenario: name, ...r, note: bad.length ? bad.join('; ') : undefined })
      }
      return { rows, seeding: { small: small.seconds, big: big.seconds }, shape }
    } finally {
      await big.close()
    }
  } finally {
    await small.close()
  }
}
