// Shared steps for the bots route tests (not a test file itself): real requests through the real app,
// real peers (a knowledge base with documents, a tool server) on 127.0.0.1.
import assert from 'node:assert/strict'
import { createServer, type IncomingHttpHeaders } from 'node:http'
import { createTestApp, get, ok, post, type TestApp } from '../../../test/helpers.js'

export { assertProblem, events, get, ok, patch, post } from '../../../test/helpers.js'

/** A test app whose job runner works (documents get processed). */
export async function botsApp(env: Record<string, string> = {}): Promise<TestApp> {
  const h = await createTestApp({ env })
  h.app.kernel.jobs.start()
  return h
}

export const newBot = (h: TestApp, payload: Record<string, unknown> = {}, key?: string) => ok(post(h, '/bots', { name: 'Support bot', ...payload }, { key }), 201)

/** A new bot and its guardrails as first read, held to the documented defaults. */
export async function newBotGuardrails(h: TestApp): Promise<{ bot: any; guardrails: any }> {
  const bot = await newBot(h)
  const g = await ok(get(h, `/bots/${bot.id}/guardrails`))
  assert.equal(g.object, 'bot_guardrails')
  assert.equal(g.bot_id, bot.id)
  assert.equal(g.prompt_injection, 'block')
  assert.equal(g.answer_only_when_grounded, true)
  assert.deepEqual(g.blocked_terms, [])
  return { bot, guardrails: g }
}

/** A knowledge base with the shop's help articles, processed. */
export async function helpCenter(h: TestApp): Promise<{ kb: any; docs: any[] }> {
  const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
  const articles = [
    { title: 'Refund policy', text: 'We refund any purchase within 14 days of delivery. Refunds are paid back to the original card within five working days.' },
    { title: 'Shipping times', text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.' },
    { title: 'Opening hours', text: 'Our support team answers Monday to Friday, from 9:00 to 17:00 CET, by chat and by e-mail.' },
  ]
  const docs = []
  for (const a of articles) {
    const d = await ok(post(h, `/knowledge/bases/${kb.id}/documents`, a), 202)
    docs.push(await processed(h, d.id))
  }
  return { kb, docs }
}

async function processed(h: TestApp, id: string): Promise<any> {
  const until = Date.now() + 20_000
  for (;;) {
    const d = await ok(get(h, `/knowledge/documents/${id}`))
    if (d.status === 'ready' || d.status === 'failed') return d
    if (Date.now() > until) assert.fail(`document ${id} still ${d.status}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

/** A bot answering from the help center, published. */
export async function publishedBot(h: TestApp, payload: Record<string, unknown> = {}): Promise<{ bot: any; kb: any; docs: any[] }> {
  const { kb, docs } = await helpCenter(h)
  const bot = await newBot(h, { knowledge_base_ids: [kb.id], ...payload })
  await ok(post(h, `/bots/${bot.id}/publish`))
  return { bot, kb, docs }
}

export const say = (h: TestApp, botId: string, content: string, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  post(h, `/bots/${botId}/messages`, { content, ...extra }, { headers })

export interface ToolRequestSeen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

/** A tool server on 127.0.0.1: answers each request with `answer(req)` after `delayMs`; records what it received. */
export async function startToolServer(answer: (req: ToolRequestSeen) => { status?: number; body: unknown; delayMs?: number }) {
  const seen: ToolRequestSeen[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      const r = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body }
      seen.push(r)
      const a = answer(r)
      setTimeout(() => {
        if (res.destroyed) return
        res.writeHead(a.status ?? 200, { 'content-type': 'application/json' }).end(JSON.stringify(a.body))
      }, a.delayMs ?? 0)
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    url: `http://127.0.0.1:${port}`,
    seen,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
