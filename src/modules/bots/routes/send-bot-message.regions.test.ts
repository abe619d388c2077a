import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { startChatServer } from '../../../kernel/ai/ai.testkit.js'
import type { TestApp } from '../../../../test/helpers.js'
import { botsApp, helpCenter, newBot, ok, patch, post } from '../bots.testkit.js'

// A reply's national phone numbers are masked in the guardrails' phone_regions and in the workspace's
// default_region (issue 32: redaction and masking read the same region rules).
describe('sendBotMessage: national phone numbers of the workspace default_region are masked', () => {
  let h: TestApp
  let chat: Awaited<ReturnType<typeof startChatServer>>
  let kb: any
  before(async () => {
    chat = await startChatServer(() => ({ text: 'Our partner in London answers on 020 7946 0958 every day.' }))
    h = await botsApp({ AI_PROVIDER: 'openai', AI_BASE_URL: chat.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '2000' })
    ;({ kb } = await helpCenter(h))
  })
  after(async () => {
    await h.close()
    await chat.close()
  })

  it('masks a GB national number once the workspace says GB, with the guardrails left at US', async () => {
    const bot = await newBot(h, { knowledge_base_ids: [kb.id], handoff: { confidence_threshold: 0 } })
    await ok(patch(h, `/bots/${bot.id}/guardrails`, { answer_only_when_grounded: false }))
    await ok(post(h, `/bots/${bot.id}/publish`))
    const ask = async () => (await ok(post(h, `/bots/${bot.id}/messages`, { content: 'Who answers in London?', test: true }), 201)).content as string
    assert.match(await ask(), /020 7946 0958/, 'a national GB number is not a US one')
    await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { default_region: 'GB' }))
    assert.equal(await ask(), 'Our partner in London answers on [phone] every day.')
    await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { default_region: null }))
  })
})
