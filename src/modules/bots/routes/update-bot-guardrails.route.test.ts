import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, newBotGuardrails, ok, patch } from '../bots.testkit.js'

const guardrails = (h: TestApp, id: string, payload: unknown, key?: string) => patch(h, `/bots/${id}/guardrails`, payload, key)

describe('getBotGuardrails and updateBotGuardrails', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('starts from documented defaults and patches field by field', async () => {
    const { bot, guardrails: g } = await newBotGuardrails(h)
    const next = await ok(guardrails(h, bot.id, { blocked_terms: ['competitor'], max_reply_length: 300, pii_masking: { emails: false } }))
    assert.deepEqual(next.blocked_terms, ['competitor'])
    assert.equal(next.max_reply_length, 300)
    assert.equal(next.pii_masking.emails, false)
    assert.equal(next.pii_masking.phone_numbers, g.pii_masking.phone_numbers, 'fields not sent are kept')
    assert.deepEqual(await ok(get(h, `/bots/${bot.id}/guardrails`)), next)
  })

  it("stores the business's own public contacts (validated), which its replies' masking leaves alone", async () => {
    const bot = await newBot(h)
    assert.deepEqual((await ok(get(h, `/bots/${bot.id}/guardrails`))).pii_masking.allowed_contacts, [])
    const next = await ok(guardrails(h, bot.id, { pii_masking: { phone_regions: ['GB'], allowed_contacts: ['020 7946 0018', 'help@acme-shop.co.uk'] } }))
    assert.deepEqual(next.pii_masking.allowed_contacts, ['020 7946 0018', 'help@acme-shop.co.uk'])
    assert.deepEqual(await ok(get(h, `/bots/${bot.id}/guardrails`)), next)
    const bad = await guardrails(h, bot.id, { pii_masking: { allowed_contacts: ['our shop'] } })
    assertProblem(bad, 422, 'validation_failed')
    assert.equal(JSON.parse(bad.body).errors[0].pointer, '/body/pii_masking/allowed_contacts/0')
  })

  it('rejects invalid values with a pointer to the bad entry', async () => {
    const bot = await newBot(h)
    const dup = await guardrails(h, bot.id, { blocked_terms: ['refund', 'Refund'] })
    assertProblem(dup, 422)
    assert.equal(JSON.parse(dup.body).errors[0].pointer, '/body/blocked_terms/1')
    assertProblem(await guardrails(h, bot.id, { max_reply_length: 5 }), 422)
    assertProblem(await guardrails(h, bot.id, { prompt_injection: 'maybe' }), 422)
    const lang = await guardrails(h, bot.id, { allowed_languages: ['en', 'xx'] })
    assertProblem(lang, 422)
    assert.equal(JSON.parse(lang.body).errors[0].pointer, '/body/allowed_languages/1')
    assertProblem(await guardrails(h, bot.id, { unknown_field: true }), 422)
    assertProblem(await get(h, `/bots/${bot.id}/guardrails`, h.b.live), 404)
    assertProblem(await guardrails(h, bot.id, { max_reply_length: 300 }, h.b.live), 404)
  })
})
