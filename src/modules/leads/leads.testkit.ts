// Shared steps for the leads route tests (not a test file itself): real requests through the real app.
import { createTestApp, ok, post, type TestApp } from '../../../test/helpers.js'

export { assertProblem, events, get, ok, patch, post } from '../../../test/helpers.js'

/** A test app whose job runner works (syncs run). */
export async function leadsApp(env: Record<string, string> = {}): Promise<TestApp> {
  const h = await createTestApp({ env: { OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true', ...env } })
  h.app.kernel.jobs.start()
  return h
}

let n = 0
export const newLead = (h: TestApp, payload: Record<string, unknown> = {}, key?: string) =>
  ok(post(h, '/leads', { name: 'Ada Lovelace', email: `ada${++n}-${Date.now()}@example.com`, ...payload }, { key }), 201)
