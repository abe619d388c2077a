// Shared steps for the agents route tests (not a test file itself): real requests through the real app,
// a real tool server on 127.0.0.1 (the kernel's), the worker running jobs.
import assert from 'node:assert/strict'
import type { LightMyRequestResponse } from 'fastify'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'

export { startToolServer } from '../../kernel/tools/tools.test-support.js'

/** A test app whose job runner works (runs execute). */
export async function agentsApp(env: Record<string, string> = {}): Promise<TestApp> {
  const h = await createTestApp({ env })
  h.app.kernel.jobs.start()
  return h
}

export async function ok(r: LightMyRequestResponse | Promise<LightMyRequestResponse>, status = 200): Promise<any> {
  const res = await r
  assert.equal(res.statusCode, status, res.body)
  return json(res)
}

export const post = (h: TestApp, url: string, payload: unknown = {}, opts: { key?: string; headers?: Record<string, string> } = {}) =>
  h.request({ method: 'POST', url: `/v2${url}`, payload: payload as object, ...(opts.key ? { key: opts.key } : {}), ...(opts.headers ? { headers: opts.headers } : {}) })
export const patch = (h: TestApp, url: string, payload: unknown, key?: string) => h.request({ method: 'PATCH', url: `/v2${url}`, payload: payload as object, ...(key ? { key } : {}) })
export const get = (h: TestApp, url: string, key?: string) => h.request({ method: 'GET', url: `/v2${url}`, ...(key ? { key } : {}) })

/** The refund tool of these tests: calls above 100 need a person. */
export const refundTool = (url: string, extra: Record<string, unknown> = {}) => ({
  type: 'http',
  name: 'refund_order',
  description: 'Refund an order: the amount goes back to the customer.',
  url: `${url}/refunds`,
  method: 'POST',
  headers: { authorization: 'Bearer shop-secret' },
  parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] },
  approval: { mode: 'when', when: { argument: 'amount', operator: 'gt', value: 100 } },
  ...extra,
})

export const newAgent = (h: TestApp, payload: Record<string, unknown> = {}, key?: string) => ok(post(h, '/agents', { name: 'Refund agent', ...payload }, { key }), 201)

export const startRun = (h: TestApp, agentId: string, input: unknown, extra: Record<string, unknown> = {}, headers?: Record<string, string>) =>
  ok(post(h, `/agents/${agentId}/runs`, { input, ...extra }, { headers }), 201)

/** Polls the run until `until` holds (default: it left queued/running). */
export async function settled(h: TestApp, agentId: string, runId: string, until: (run: any) => boolean = (r) => !['queued', 'running'].includes(r.status), ms = 20_000): Promise<any> {
  const deadline = Date.now() + ms
  for (;;) {
    const run = await ok(get(h, `/agents/${agentId}/runs/${runId}`))
    if (until(run)) return run
    if (Date.now() > deadline) assert.fail(`run ${runId} still ${run.status}: ${JSON.stringify(run.steps)}`)
    await new Promise((r) => setTimeout(r, 40))
  }
}

export function assertProblem(r: LightMyRequestResponse, status: number, code?: string) {
  assert.equal(r.statusCode, status, r.body)
  assert.match(String(r.headers['content-type']), /application\/problem\+json/)
  assert.ok(json(r).request_id, 'problem carries request_id')
  if (code) assert.equal(json(r).code, code, r.body)
}

/** Payloads of the events of one type from the outbox table. */
export async function events(h: TestApp, type: string): Promise<any[]> {
  const rows = await h.app.kernel.db.selectFrom('events').selectAll().where('type', '=', type).execute()
  return rows.map((r) => JSON.parse(r.data).object)
}
