import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { get, ok, post } from './server.js'
import { skip, startDashboard, type Dashboard } from './harness.js'

const ANSWER = 'Orders ship from Lyon and arrive in two to four working days in France [1].'

// The dashboard's test chat with an OpenAI-compatible engine that writes slowly (a word every 150 ms): the
// reply shows as it streams, then the reply as sent; the exchange is a test, so the inbox stays empty.
describe('dashboard bot test chat in Chromium: a streamed reply, no inbox conversation', { skip }, () => {
  let d: Dashboard
  let botId: string
  before(async () => {
    // The imitation engine runs beside the server (scripts/e2e-server.ts), which is configured with it.
    d = await startDashboard({ chat: { text: ANSWER, chunkDelayMs: 150 } })
    const bot = await ok(post(d.h, '/bots', { name: 'Streaming bot', handoff: { confidence_threshold: 0 } }), 201)
    await ok(d.h.request({ method: 'PATCH', url: `/v2/bots/${bot.id}/guardrails`, payload: { answer_only_when_grounded: false } }))
    await ok(post(d.h, `/bots/${bot.id}/publish`))
    botId = bot.id
  })
  after(async () => {
    await d?.close()
  })

  it('shows the reply word by word, then the final reply; nothing reaches the inbox', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/bots/${botId}`)
    const region = page.getByRole('region', { name: 'Test chat' })
    await region.getByLabel('Message to the bot').fill('How long does delivery take?')
    await region.getByRole('button', { name: 'Send to bot' }).click()
    // Part of the answer, before the whole of it: the text grows as the model writes.
    const streaming = region.locator('.bot-streaming')
    await streaming.getByText(/^Orders ship/).waitFor()
    const partial = (await streaming.textContent()) ?? ''
    assert.ok(partial.length < ANSWER.length, partial)
    const answer = region.locator('.bot-answer').first()
    await answer.waitFor()
    // The reply as sent replaces the pieces: the bot has no knowledge, so the "[1]" the model wrote cites nothing and goes.
    assert.equal(await answer.textContent(), ANSWER.replace(' [1]', ''))
    assert.equal(await streaming.count(), 0)
    assert.equal((await d.h.step<{ stream?: boolean }[]>('chat-requests')).at(-1)?.stream, true)
    assert.deepEqual((await ok(get(d.h, '/inbox/conversations'))).data, [], 'a test exchange is not an inbox conversation')
    d.clean(page)
  })
})
