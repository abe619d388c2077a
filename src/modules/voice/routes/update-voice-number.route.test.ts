import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { newAgent } from '../../agents/agents.testkit.js'
import { assertProblem, events, get, newNumber, ok, patch, post, voiceApp, voiceBot, type VoiceApp } from '../voice.testkit.js'

describe('getVoiceNumber / updateVoiceNumber', () => {
  let h: VoiceApp
  let bot: any
  before(async () => {
    h = await voiceApp()
    bot = await voiceBot(h)
  })
  after(() => h.close())

  it('renames a number and changes what answers it: bot, then agent, then the greeting alone', async () => {
    const n = await newNumber(h, { friendly_name: 'Front desk', greeting: 'Hello, front desk.' })
    assert.deepEqual(await ok(get(h, `/voice/numbers/${n.id}`)), n)

    const renamed = await ok(patch(h, `/voice/numbers/${n.id}`, { friendly_name: 'Support line' }))
    assert.equal(renamed.friendly_name, 'Support line')
    assert.deepEqual(renamed.answer, n.answer, 'what answers is unchanged')

    const byBot = await ok(patch(h, `/voice/numbers/${n.id}`, { bot_id: bot.id }))
    assert.deepEqual(byBot.answer, { type: 'bot', id: bot.id, greeting: 'Hello, front desk.' })
    // A call placed from the number without its own answerer takes the number's.
    const call = await ok(post(h, '/voice/calls', { from_number_id: n.id, to: '+15005550006' }), 201)
    assert.deepEqual(call.answer, byBot.answer)

    const agent = await newAgent(h)
    const byAgent = await ok(patch(h, `/voice/numbers/${n.id}`, { agent_id: agent.id, greeting: null }))
    assert.deepEqual(byAgent.answer, { type: 'agent', id: agent.id, greeting: null }, 'the agent replaces the bot')

    const alone = await ok(patch(h, `/voice/numbers/${n.id}`, { agent_id: null, greeting: 'We are closed; call back tomorrow.' }))
    assert.deepEqual(alone.answer, { type: 'greeting', id: null, greeting: 'We are closed; call back tomorrow.' })
    assert.deepEqual(await ok(get(h, `/voice/numbers/${n.id}`)), alone)

    const updates = (await events(h, 'voice_number.updated')).filter((e) => e.id === n.id)
    assert.deepEqual(
      updates.map((e) => e.answer.type),
      ['greeting', 'bot', 'agent', 'greeting'],
    )
  })

  it('a patch that changes nothing emits nothing; a null for an answerer the number does not use changes nothing', async () => {
    const n = await newNumber(h, { bot_id: bot.id })
    const before = (await events(h, 'voice_number.updated')).length
    assert.deepEqual(await ok(patch(h, `/voice/numbers/${n.id}`, {})), n)
    assert.deepEqual(await ok(patch(h, `/voice/numbers/${n.id}`, { agent_id: null, friendly_name: n.friendly_name })), n)
    assert.equal((await events(h, 'voice_number.updated')).length, before)
  })

  it('bad input: both answerers 422, unknown bot 422 invalid_reference, unknown field 422, another workspace’s number 404', async () => {
    const n = await newNumber(h)
    assertProblem(await patch(h, `/voice/numbers/${n.id}`, { bot_id: bot.id, agent_id: 'agt_01JD0000000000000000000000' }), 422, 'validation_failed')
    assertProblem(await patch(h, `/voice/numbers/${n.id}`, { bot_id: 'bot_01JD0000000000000000000000' }), 422, 'invalid_reference')
    assertProblem(await patch(h, `/voice/numbers/${n.id}`, { phone_number: '+14155550100' }), 422, 'validation_failed')
    assertProblem(await patch(h, `/voice/numbers/${n.id}`, { friendly_name: '' }), 422, 'validation_failed')
    assert.deepEqual(await ok(get(h, `/voice/numbers/${n.id}`)), n, 'nothing changed')
    const theirs = await newNumber(h, {}, h.b.live)
    assertProblem(await get(h, `/voice/numbers/${theirs.id}`), 404, 'resource_not_found')
    assertProblem(await patch(h, `/voice/numbers/${theirs.id}`, { friendly_name: 'Mine now' }), 404, 'resource_not_found')
    assertProblem(await get(h, '/voice/numbers/num_01JD0000000000000000000000'), 404, 'resource_not_found')
  })
})
