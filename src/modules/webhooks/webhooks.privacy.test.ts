import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../kernel/clock.js'
import type { DataSubject } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import { createTestApp, json, ok, type TestApp } from '../../../test/helpers.js'

const ADA: DataSubject = { email: 'ada@example.com', phone: '+14155550101', external_id: 'crm-ada' }
const NADA: DataSubject = { email: 'nada@example.com', phone: '+141555501019', external_id: 'crm-ada-2' }

describe('webhooks privacy and retention', () => {
  let h: TestApp
  let clock: ManualClock
  let receiver: Server
  let url: string
  const webhooks = () => h.app.kernel.modules.find((m) => m.name === 'webhooks')!
  // The sandbox: endpoints may be plain http there, so a receiver on 127.0.0.1 gets the deliveries.
  const call = (ws: 'a' | 'b', method: 'GET' | 'POST', path: string, payload?: object) => h.request({ method, url: `/sandbox/v2${path}`, key: h[ws].test, ...(payload ? { payload } : {}) })
  const tenantOf = (ws: 'a' | 'b'): Tenant => ({ workspaceId: h[ws].workspaceId, mode: 'test' })
  const collect = (s: DataSubject, ws: 'a' | 'b' = 'a') => webhooks().privacy!.collect(h.app.kernel, h.app.services, tenantOf(ws), s)
  const attemptsOf = async (deliveryId: string) => (await h.app.kernel.db.selectFrom('webhook_attempts').select('id').where('delivery_id', '=', deliveryId).execute()).length

  before(async () => {
    receiver = createServer((req, res) => req.resume().on('end', () => res.writeHead(204).end()))
    await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve))
    url = `http://127.0.0.1:${(receiver.address() as { port: number }).port}/hooks`
    clock = new ManualClock(Date.parse('2026-11-01T09:00:00Z'))
    h = await createTestApp({ clock })
  })
  after(async () => {
    await h.close()
    await new Promise<void>((resolve) => receiver.close(() => resolve()))
  })

  it('finds the events whose payload names the subject, with their deliveries; erase deletes them with their attempts', async () => {
    await ok(call('a', 'POST', '/webhooks/endpoints', { url }), 201)
    const byEmail = await ok(call('a', 'POST', '/inbox/conversations', { contact: { email: ADA.email }, message: { content: 'Hello' } }), 201)
    const byExternal = await ok(call('a', 'POST', '/inbox/conversations', { contact: { external_id: ADA.external_id } }), 201)
    const nada = await ok(call('a', 'POST', '/inbox/conversations', { contact: { email: NADA.email, phone: NADA.phone, external_id: NADA.external_id } }), 201)
    const mention = await ok(call('a', 'POST', `/inbox/conversations/${nada.id}/messages`, { content: 'Ada is on +14155550101', direction: 'inbound' }), 201)
    await h.drainJobs()

    const found = await collect(ADA)
    const events = found.records.events as any[]
    const about = (e: any) => e.data.object.id
    assert.ok(events.some((e) => e.type === 'conversation.created' && about(e) === byEmail.id))
    assert.ok(events.some((e) => e.type === 'conversation.created' && about(e) === byExternal.id))
    assert.ok(events.some((e) => e.type === 'message.created' && about(e) === mention.id))
    assert.ok(!events.some((e) => about(e) === nada.id), "Nada's conversation is not Ada's")
    for (const e of events) assert.deepEqual(Object.keys(e), ['id', 'type', 'created_at', 'workspace_id', 'livemode', 'api_version', 'data'])
    const deliveries = found.records.webhook_deliveries as any[]
    assert.equal(deliveries.length, events.length, 'one endpoint: one delivery each')
    assert.ok(deliveries.every((d) => d.status === 'succeeded'))
    const attempts = (await Promise.all(deliveries.map((d) => attemptsOf(d.id)))).reduce((a, b) => a + b, 0)
    assert.equal(attempts, deliveries.length)
    const nadaBefore = await collect(NADA)
    assert.ok(nadaBefore.records.events.length > 0)
    assert.ok(!nadaBefore.records.events.some((e: any) => e.data.object.id === byExternal.id), 'crm-ada-2 is not crm-ada')

    assert.deepEqual(await webhooks().privacy!.erase(h.app.kernel, h.app.services, tenantOf('a'), ADA), { deleted: events.length + deliveries.length + attempts, anonymised: 0 })
    assert.deepEqual(await collect(ADA), { records: { events: [], webhook_deliveries: [], playground_captures: [] }, files: [], ids: [] })
    assert.equal((await call('a', 'GET', `/webhooks/deliveries/${deliveries[0].id}`)).statusCode, 404)
    for (const d of deliveries) assert.equal(await attemptsOf(d.id), 0)
    const nadaAfter = await collect(NADA)
    // The mention of Ada in Nada's conversation was both theirs (Nada's conversation, Ada's phone): it went with Ada.
    const mentionEvent: any = nadaBefore.records.events.find((e: any) => e.data.object.id === mention.id)
    assert.ok(mentionEvent, 'an event of Nada’s conversation is Nada’s (found by the conversation’s id)')
    assert.deepEqual(
      nadaAfter.ids,
      nadaBefore.ids.filter((id) => found.ids.includes(id) === false),
    )
    assert.ok(!nadaAfter.ids.includes(mentionEvent.id))
    for (const d of nadaAfter.records.webhook_deliveries as any[]) assert.equal(await attemptsOf(d.id), 1)
    assert.deepEqual(await webhooks().privacy!.erase(h.app.kernel, h.app.services, tenantOf('a'), ADA), { deleted: 0, anonymised: 0 })
  })

  it('retention of webhook_deliveries: deliveries created before the cutoff go with their attempts; newer ones and the events stay', async () => {
    const t = tenantOf('b')
    const cls = webhooks().retention!.find((c) => c.name === 'webhook_deliveries')!
    await ok(call('b', 'POST', '/webhooks/endpoints', { url }), 201)
    await ok(call('b', 'POST', '/inbox/conversations', { subject: 'old one' }), 201)
    await ok(call('b', 'POST', '/inbox/conversations', { subject: 'old two' }), 201)
    await h.drainJobs()
    clock.advance(10 * 86400_000)
    await ok(call('b', 'POST', '/inbox/conversations', { subject: 'new' }), 201)
    await h.drainJobs()
    const cutoff = new Date(clock.now().getTime() - 5 * 86400_000).toISOString()
    const all = json(await call('b', 'GET', '/webhooks/deliveries?limit=100')).data as any[]
    const old = all.filter((d) => d.created_at < cutoff)
    assert.ok(old.length >= 2 && old.length < all.length, JSON.stringify(all.map((d) => d.created_at)))

    assert.equal(await cls.count(h.app.kernel, t, cutoff), old.length)
    assert.equal(await cls.purge(h.app.kernel, t, cutoff, 1), 1)
    assert.equal(await cls.purge(h.app.kernel, t, cutoff, 500), old.length - 1)
    assert.equal(await cls.count(h.app.kernel, t, cutoff), 0)
    for (const d of old) assert.equal(await attemptsOf(d.id), 0)
    const left = json(await call('b', 'GET', '/webhooks/deliveries?limit=100')).data as any[]
    assert.deepEqual(
      left.map((d) => d.id).sort(),
      all
        .filter((d) => d.created_at >= cutoff)
        .map((d) => d.id)
        .sort(),
    )
    const events = await h.app.kernel.db
      .selectFrom('events')
      .select('id')
      .where(
        'id',
        'in',
        old.map((d) => d.event_id),
      )
      .execute()
    assert.equal(events.length, old.length)
  })
})
