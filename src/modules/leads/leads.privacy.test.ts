import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DataSubject } from '../../kernel/module.js'
import { createTestApp, events, get, ok, post, type TestApp } from '../../../test/helpers.js'

const ADA: DataSubject = { email: 'ada@example.com', phone: '+14155550101', external_id: null }
const NADA: DataSubject = { email: 'nada@example.com', phone: '+14155550102', external_id: null }

describe('leads privacy', () => {
  let h: TestApp
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const privacy = () => h.app.kernel.modules.find((m) => m.name === 'leads')!.privacy!
  const collect = (s: DataSubject) => privacy().collect(h.app.kernel, h.app.services, tenant(), s)
  const lead = (payload: Record<string, unknown>) => ok(post(h, '/leads', { name: 'Someone', ...payload }), 201)

  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('finds the leads with the email or the phone and their activities; erase deletes them and nobody else', async () => {
    const byEmail = await lead({ email: 'ADA@example.com' })
    const byPhone = await lead({ phone: '+1 415 555 0101' })
    await ok(post(h, `/leads/${byEmail.id}/activities`, { type: 'note', body: 'Met at the fair' }), 201)
    const nada = await lead({ email: NADA.email, phone: NADA.phone })
    await ok(post(h, `/leads/${nada.id}/activities`, { type: 'call', body: 'Called back' }), 201)

    const found = await collect(ADA)
    assert.deepEqual(found.records.leads.map((l: any) => l.id).sort(), [byEmail.id, byPhone.id].sort())
    assert.equal((found.records.leads as any[]).find((l) => l.id === byEmail.id).email, 'ada@example.com')
    assert.deepEqual(
      found.records.lead_activities.map((a: any) => a.lead_id),
      [byEmail.id],
    )
    assert.ok(found.ids.includes(byPhone.id))
    assert.deepEqual(
      (await collect({ email: null, phone: ADA.phone, external_id: null })).records.leads.map((l: any) => l.id),
      [byPhone.id],
    )
    assert.deepEqual(
      (await collect(NADA)).records.leads.map((l: any) => l.id),
      [nada.id],
    )

    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 3, anonymised: 0 })
    const after = await collect(ADA)
    assert.deepEqual(after.records, { leads: [], lead_activities: [] })
    assert.equal((await get(h, `/leads/${byEmail.id}`)).statusCode, 404)
    assert.ok((await events(h, 'lead.deleted')).some((e) => e.id === byEmail.id && Object.keys(e).length === 3))
    const kept = await collect(NADA)
    assert.equal(kept.records.leads.length, 1)
    assert.equal(kept.records.lead_activities.length, 1)

    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 0, anonymised: 0 })
  })
})
