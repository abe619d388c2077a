import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, get, newNumber, ok, post, voiceApp, type VoiceApp } from './voice.testkit.js'

describe('a call answered from the knowledge base is spoken, not read out as markup', () => {
  let h: VoiceApp
  let bot: any
  before(async () => {
    h = await voiceApp()
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Shipping help' }), 201)
    await ok(
      post(h, `/knowledge/bases/${kb.id}/documents`, {
        title: 'Shipping costs',
        text: 'Standard shipping costs $25.50 and takes 3-5 business days. Orders placed before 14:30 leave the warehouse the same day. Details: https://help.example.com/shipping',
      }),
      202,
    )
    await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Returns', text: 'You can return an item within 30 days; the courier collects it from your door.' }), 202)
    await h.drainJobs()
    bot = await ok(post(h, '/bots', { name: 'Shipping bot', knowledge_base_ids: [kb.id] }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
  })
  after(() => h.close())

  it('the chat reply cites [1]; the call says the same answer without markers or URLs, money and ranges in words', async () => {
    const question = 'How much does standard shipping cost?'
    const chat = await ok(post(h, `/bots/${bot.id}/messages`, { content: question }), 201)
    assert.match(chat.content, /\$25\.50.*\[\d\]/, 'the engine writes for a screen: the marker is there to remove')

    const num = await newNumber(h)
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550123', bot_id: bot.id, script: [question] }), 201)
    const call = await advance(h, created.id)
    assert.equal(call.status, 'completed')
    const transcript = await ok(get(h, `/voice/calls/${call.id}/transcript`))
    assert.equal(transcript.status, 'ready')
    const answer = transcript.segments[2]
    assert.equal(answer.speaker, 'bot')
    assert.match(answer.text, /twenty five dollars and fifty cents/)
    assert.match(answer.text, /3 to 5 business days/)
    for (const s of transcript.segments) {
      assert.doesNotMatch(s.text, /\[\d+\]|https?:\/\/|\*\*|\$\d/, `spoken: ${s.text}`)
    }
    // The conversation's messages are the transcript's lines: the inbox shows what the caller heard.
    const messages = (await ok(get(h, `/inbox/conversations/${call.conversation_id}/messages`))).data
    assert.ok(messages.some((m: any) => m.content === answer.text))
  })
})
