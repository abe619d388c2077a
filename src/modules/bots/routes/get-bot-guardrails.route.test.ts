import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, newBotGuardrails, ok, patch } from '../bots.testkit.js'

// update-bot-guardrails.route.test.ts covers each guardrail in depth; this file holds the read's own promises.
describe('getBotGuardrails (GET /bots/{id}/guardrails)', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it("answers the draft's guardrails: the documented defaults, then what was set", async () => {
    const { bot } = await newBotGuardrails(h)
    await ok(patch(h, `/bots/${bot.id}/guardrails`, { blocked_terms: ['lawsuit'], max_reply_length: 250 }))
    const next = await ok(get(h, `/bots/${bot.id}/guardrails`))
    assert.deepEqual(next.blocked_terms, ['lawsuit'])
    assert.equal(next.max_reply_length, 250)
    assert.equal(next.prompt_injection, 'block', 'fields not set keep their value')
  })

  it("another workspace's bot is 404; an over-long id is 422; bots:read is required", async () => {
    const bot = await newBot(h)
    assertProblem(await get(h, `/bots/${bot.id}/guardrails`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/bots/bot_missing/guardrails'), 404, 'resource_not_found')
    assertProblem(await get(h, `/bots/${'x'.repeat(65)}/guardrails`), 422, 'validation_failed')
    assertProblem(await get(h, `/bots/${bot.id}/guardrails`, await h.key(['knowledge:read'])), 403, 'insufficient_scope')
  })
})
