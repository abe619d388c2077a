// Shared steps for the search and gaps tests (not a test file itself): real requests through the real app.
import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'

/** A test app whose job runner works in the background (document processing, gap resolution). */
export async function startApp(env: Record<string, string> = {}): Promise<TestApp> {
  const h = await createTestApp({ env })
  h.app.kernel.jobs.start()
  return h
}

export async function createBase(h: TestApp, payload: Record<string, unknown> = { name: 'Help center' }, key?: string): Promise<any> {
  const r = await h.request({ method: 'POST', url: '/v2/knowledge/bases', payload, ...(key ? { key } : {}) })
  assert.equal(r.statusCode, 201, r.body)
  return json(r)
}

/** Upload a JSON document and wait until it is processed (ready or failed). */
export async function addDocument(h: TestApp, kbId: string, payload: Record<string, unknown>, key?: string): Promise<any> {
  const r = await h.request({ method: 'POST', url: `/v2/knowledge/bases/${kbId}/documents`, payload, ...(key ? { key } : {}) })
  assert.equal(r.statusCode, 202, r.body)
  return waitFor(h, `/v2/knowledge/documents/${json(r).id}`, (d) => d.status === 'ready' || d.status === 'failed', key)
}

/** Poll a GET until `done` holds for its body (the job runner works in the background). */
export async function waitFor(h: TestApp, url: string, done: (body: any) => boolean, key?: string, timeoutMs = 15_000): Promise<any> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const r = await h.request({ method: 'GET', url, ...(key ? { key } : {}) })
    const body = json(r)
    if (r.statusCode === 200 && done(body)) return body
    if (Date.now() > until) assert.fail(`timed out waiting on ${url}: ${r.body}`)
    await new Promise((res) => setTimeout(res, 50))
  }
}

export const search = (h: TestApp, payload: Record<string, unknown>, key?: string): Promise<LightMyRequestResponse> =>
  h.request({ method: 'POST', url: '/v2/knowledge/search', payload, ...(key ? { key } : {}) })

export async function searchOk(h: TestApp, payload: Record<string, unknown>, key?: string): Promise<any> {
  const r = await search(h, payload, key)
  assert.equal(r.statusCode, 200, r.body)
  return json(r)
}

export function assertProblem(r: LightMyRequestResponse, status: number, code?: string) {
  assert.equal(r.statusCode, status, r.body)
  assert.match(String(r.headers['content-type']), /application\/problem\+json/)
  assert.ok(json(r).request_id, 'problem carries request_id')
  if (code) assert.equal(json(r).code, code, r.body)
}

/** Events of one type whose payload is the given resource, straight from the outbox table, in the order they were emitted. */
export async function eventsFor(h: TestApp, type: string, objectId: string): Promise<any[]> {
  const rows = await h.app.kernel.db.selectFrom('events').selectAll().where('type', '=', type).orderBy('id').execute()
  return rows.map((r) => JSON.parse(r.data).object).filter((o) => o.id === objectId)
}

/** The words of an excerpt without its marks and ellipses. */
export const excerptWords = (excerpt: string): string[] => excerpt.replace(/[«»…]/g, ' ').split(/\s+/).filter(Boolean)

/**
 * A tiny OpenAI-compatible embeddings server on 127.0.0.1 with deterministic vectors: a hashed bag of
 * words over 64 dimensions, where the words of `synonyms` count as their key (so it "knows" meanings
 * the keyword index does not).
 */
export async function startFakeEmbeddings(synonyms: Record<string, string[]> = {}) {
  const concept = new Map<string, string>()
  for (const [key, words] of Object.entries(synonyms)) for (const w of words) concept.set(w, key)
  const embed = (text: string): number[] => {
    const v = new Array<number>(64).fill(0)
    for (const raw of text.toLowerCase().match(/[a-z0-9]+/g) ?? []) {
      const w = concept.get(raw) ?? raw
      let hash = 0
      for (const ch of w) hash = (hash * 31 + ch.charCodeAt(0)) >>> 0
      v[hash % 64] += 1
    }
    return v
  }
  const requests: { input: string[]; model: string }[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      if (req.method !== 'POST' || req.url !== '/v1/embeddings') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }))
        return
      }
      const parsed = JSON.parse(body) as { input: string | string[]; model: string }
      const input = Array.isArray(parsed.input) ? parsed.input : [parsed.input]
      requests.push({ input, model: parsed.model })
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          object: 'list',
          model: parsed.model,
          data: input.map((t, index) => ({ object: 'embedding', index, embedding: embed(t) })),
          usage: { prompt_tokens: 1, total_tokens: 1 },
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as { port: number }).port
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      if (!server.listening) return
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
