// Shared steps for the agents route tests (not a test file itself): real requests through the real app,
// a real tool server on 127.0.0.1 (the kernel's), the worker running jobs.
import assert from 'node:assert/strict'
import { createTestApp, get, ok, post, type TestApp } from '../../../test/helpers.js'

export { assertProblem, events, get, ok, patch, post } from '../../../test/helpers.js'

export { startToolServer } from '../../kernel/tools/tools.testkit.js'

/** A test app whose job runner works (runs execute). */
export async function agentsApp(env: Record<string, string> = {}): Promise<TestApp> {
  const h = await createTestApp({ env })
  h.app.kernel.jobs.start()
  return h
}

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
