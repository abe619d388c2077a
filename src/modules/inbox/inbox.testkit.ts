// Shared steps for the inbox route tests (not a test file itself): real requests through the real app.
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { json, type TestApp } from '../../../test/helpers.js'

export async function createConversation(h: TestApp, payload: Record<string, unknown> = {}, key?: string): Promise<any> {
  const r = await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload, ...(key ? { key } : {}) })
  assert.equal(r.statusCode, 201, r.body)
  return json(r)
}

export async function sendMessage(h: TestApp, id: string, payload: Record<string, unknown>, headers: Record<string, string> = {}) {
  return h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload, headers })
}

export async function createTag(h: TestApp, name: string, color?: string): Promise<any> {
  const r = await h.request({ method: 'POST', url: '/v2/inbox/tags', payload: { name, ...(color ? { color } : {}) } })
  assert.equal(r.statusCode, 201, r.body)
  return json(r)
}

export async function createTemplate(h: TestApp, payload: Record<string, unknown>): Promise<any> {
  const r = await h.request({ method: 'POST', url: '/v2/inbox/templates', payload })
  assert.equal(r.statusCode, 201, r.body)
  return json(r)
}

/** Events of one type whose payload is the given resource, straight from the outbox table. */
export async function eventsFor(h: TestApp, type: string, objectId: string): Promise<any[]> {
  const rows = await h.app.kernel.db.selectFrom('events').selectAll().where('type', '=', type).execute()
  return rows.map((r) => JSON.parse(r.data).object).filter((o) => o.id === objectId)
}

export function assertProblem(r: LightMyRequestResponse, status: number, code?: string) {
  assert.equal(r.statusCode, status, r.body)
  assert.match(String(r.headers['content-type']), /application\/problem\+json/)
  if (code) assert.equal(json(r).code, code, r.body)
}

/** The shared security story of one operation: no key → 401, a key without its scope → 403. */
export async function assertAuthRequired(h: TestApp, req: { method: 'GET' | 'POST' | 'PATCH'; url: string; payload?: Record<string, unknown> }) {
  const anonymous = await h.request({ ...req, key: null })
  assertProblem(anonymous, 401, 'unauthorized')
  const weak = await h.key(['bots:read'])
  const forbidden = await h.request({ ...req, key: weak })
  assertProblem(forbidden, 403, 'insufficient_scope')
}

/** A tiny OpenAI-compatible server on 127.0.0.1: answers, fails or hangs, as the test says. */
export async function startFakeOpenAi(behaviour: { mode: 'ok' | 'hang' | 'error'; text?: string; status?: number }) {
  const { createServer } = await import('node:http')
  const requests: any[] = []
  const server = createServer((req, res) => {
    let body = ''
    req.on('data', (c) => (body += c))
    req.on('end', () => {
      requests.push({ method: req.method, url: req.url, headers: req.headers, body: body ? JSON.parse(body) : null })
      if (behaviour.mode === 'hang') return // never answers
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'not found' } }))
        return
      }
      if (behaviour.mode === 'error') {
        res.writeHead(behaviour.status ?? 500, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'model exploded', type: 'server_error' } }))
        return
      }
      const model = JSON.parse(body).model
      res.writeHead(200, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          id: 'chatcmpl-test',
          object: 'chat.completion',
          created: Math.floor(Date.now() / 1000),
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: behaviour.text ?? 'Hello from the fake model.' }, finish_reason: 'stop' }],
          usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
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
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}

/**
 * A member of workspace A with a dashboard session token (svc_dash_…, live): the credential read state,
 * `assignee=me` and the counts belong to. Returns the token and the member id.
 */
export async function memberSession(h: TestApp, email: string): Promise<{ token: string; memberId: string }> {
  const { memberWithPassword, PageBrowser } = await import('../workspaces/sign-in/sign-in.testkit.js')
  const password = 'inbox member password 1'
  await memberWithPassword(h, email, password)
  const b = new PageBrowser(h)
  const signIn = await b.signIn(email, password, '/dashboard')
  assert.equal(signIn.statusCode, 303, signIn.body)
  const session = json(await b.get('/dashboard/session'))
  const cookie = [...b.cookies].map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('; ')
  const res = await h
    .http()
    .inject({ method: 'POST', url: '/dashboard/session/tokens', headers: { cookie, 'x-csrf-token': session.csrf_token }, payload: { workspace_id: h.a.workspaceId, mode: 'live' } })
  assert.equal(res.statusCode, 201, res.body)
  const members = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/members?limit=100` })).data as { id: string; email: string }[]
  return { token: json(res).token, memberId: members.find((m) => m.email === email)!.id }
}
