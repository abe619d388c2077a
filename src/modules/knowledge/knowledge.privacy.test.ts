import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DataSubject } from '../../kernel/module.js'
import { get, ok, type TestApp } from '../../../test/helpers.js'
import { addDocument, createBase, searchOk, startApp } from './knowledge.search.testkit.js'

const ADA: DataSubject = { email: 'ada@example.com', phone: '+14155550101', external_id: null }
const NADA: DataSubject = { email: 'nada@example.com', phone: '+141555501019', external_id: null }

describe('knowledge privacy', () => {
  let h: TestApp
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const privacy = () => h.app.kernel.modules.find((m) => m.name === 'knowledge')!.privacy!
  const collect = (s: DataSubject) => privacy().collect(h.app.kernel, h.app.services, tenant(), s)

  before(async () => {
    h = await startApp()
    const kb = await createBase(h, { name: 'Help center' })
    await addDocument(h, kb.id, { title: 'Refund policy', text: 'We refund any purchase within 14 days of delivery, no questions asked.' })
  })
  after(() => h.close())

  it('finds the gaps whose questions name the subject; erase deletes them and leaves the others', async () => {
    const question = 'Can I pay the invoice by bank transfer, wire transfer or direct debit from my account?'
    const bank = (await searchOk(h, { query: question })).gap
    const again = (await searchOk(h, { query: `${question} Write to ADA@example.com` })).gap
    assert.equal(again.id, bank.id, 'grouped: the subject is in an example, not in the first question')
    const mars = (await searchOk(h, { query: 'Do you deliver parcels to Mars? Call +14155550101' })).gap
    const excel = (await searchOk(h, { query: 'How do I export invoices to Excel? I am nada@example.com, +141555501019' })).gap
    const plain = (await searchOk(h, { query: 'Which opening hours has the Lyon store?' })).gap
    for (const g of [bank, mars, excel, plain]) assert.ok(g)

    const found = await collect(ADA)
    assert.deepEqual(found.ids, [bank.id, mars.id].sort())
    const shown = (found.records.knowledge_gaps as any[]).find((g) => g.id === bank.id)
    assert.deepEqual(shown.examples, [question, `${question} Write to ADA@example.com`])
    assert.equal(shown.object, 'knowledge_gap')
    assert.deepEqual((await collect(NADA)).ids, [excel.id])

    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 2, anonymised: 0 })
    assert.deepEqual(await collect(ADA), { records: { knowledge_gaps: [], knowledge_documents: [] }, files: [], ids: [] })
    const left = (await ok(get(h, '/knowledge/gaps?limit=100'))).data.map((g: any) => g.id)
    assert.deepEqual(left.sort(), [excel.id, plain.id].sort())
    assert.deepEqual((await collect(NADA)).ids, [excel.id])
    // The grouping terms went with the gap: the same question now opens a new one.
    const reopened = (await searchOk(h, { query: question })).gap
    assert.notEqual(reopened.id, bank.id)
    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 0, anonymised: 0 })
  })
})
