import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../test/helpers.js'
import type { Tenant } from '../../kernel/tenant.js'
import { WEBHOOK_EVENTS } from './webhooks.events.js'
import * as repo from './webhooks.repository.js'
import { createEndpoint } from './webhooks.testkit.js'

// The fan-out reads a workspace's subscribed endpoints once per transaction (webhook-endpoints.repository.ts):
// what one transaction changes about its endpoints, and what another workspace has, must still be seen.
describe('webhook fan-out: the endpoints read once per transaction', () => {
  let h: TestApp
  let a: Tenant
  let b: Tenant
  const example = WEBHOOK_EVENTS['webhook_endpoint.disabled'].example
  const deliveredTo = async (eventId: string) =>
    (await h.app.kernel.db.selectFrom('webhook_deliveries').select('endpoint_id').where('event_id', '=', eventId).execute()).map((r) => r.endpoint_id).sort()
  before(async () => {
    h = await createTestApp()
    a = { workspaceId: h.a.workspaceId, mode: 'test' }
    b = { workspaceId: h.b.workspaceId, mode: 'test' }
  })
  after(() => h.close())

  it('one read answers every event of the transaction, of its own workspace only', async () => {
    const mine = await createEndpoint(h, 'http://127.0.0.1:9/mine')
    const theirs = await createEndpoint(h, 'http://127.0.0.1:9/theirs', {}, h.b.test)
    const { kernel } = h.app
    const [first, second, other] = await kernel.transaction(null, async (tx) => {
      const one = await kernel.events.emit(tx, a, 'webhook_endpoint.disabled', example)
      const two = await kernel.events.emit(tx, a, 'webhook_endpoint.disabled', example)
      const three = await kernel.events.emit(tx, b, 'webhook_endpoint.disabled', example)
      return [one, two, three]
    })
    assert.deepEqual(await deliveredTo(first.id), [mine.id])
    assert.deepEqual(await deliveredTo(second.id), [mine.id])
    assert.deepEqual(await deliveredTo(other.id), [theirs.id])
  })

  it('an endpoint written in the transaction counts for its next events', async () => {
    const kept = await createEndpoint(h, 'http://127.0.0.1:9/kept')
    const { kernel } = h.app
    const before = (await repo.enabledEndpoints(kernel.db, a)).map((e) => e.id)
    assert.ok(before.includes(kept.id))
    const [first, afterDisable] = await kernel.transaction(null, async (tx) => {
      const one = await kernel.events.emit(tx, a, 'webhook_endpoint.disabled', example)
      for (const id of before.filter((id) => id !== kept.id)) await repo.updateEndpoint(tx, a, id, { enabled: 0 })
      const two = await kernel.events.emit(tx, a, 'webhook_endpoint.disabled', example)
      return [one, two]
    })
    assert.deepEqual(await deliveredTo(first.id), [...before].sort())
    assert.deepEqual(await deliveredTo(afterDisable.id), [kept.id])
    // A later transaction reads again: an endpoint created meanwhile gets its events.
    const added = await createEndpoint(h, 'http://127.0.0.1:9/added')
    const later = await kernel.transaction(null, (tx) => kernel.events.emit(tx, a, 'webhook_endpoint.disabled', example))
    assert.deepEqual(await deliveredTo(later.id), [kept.id, added.id].sort())
  })
})
