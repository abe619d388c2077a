import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

describe('getVoiceNumber (GET /voice/numbers/{id})', () => {
  let h: VoiceApp
  before(async () => (h = await voiceApp()))
  after(() => h.close())

  it('answers the number, its carrier and what answers its calls', async () => {
    const bot = await ok(post(h, '/bots', { name: 'Phone bot' }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const made = await newNumber(h, { country: 'GB', area_code: '161', friendly_name: 'Manchester desk', bot_id: bot.id, greeting: 'Hello from Manchester.' })
    const got = await ok(get(h, `/voice/numbers/${made.id}`))
    assert.match(got.id, /^num_/)
    assert.equal(got.object, 'voice_number')
    assert.equal(got.phone_number, made.phone_number)
    assert.match(got.phone_number, /^\+441614960\d{3}$/)
    assert.equal(got.country, 'GB')
    assert.equal(got.area_code, '161')
    assert.equal(got.friendly_name, 'Manchester desk')
    assert.equal(got.carrier, 'simulated')
    assert.deepEqual(got.answer, { type: 'bot', id: bot.id, greeting: 'Hello from Manchester.' })
    assert.deepEqual(got, made)
  })

  it("another workspace's number and an unknown id are 404; an over-long id is 422; the read scope is required", async () => {
    const made = await newNumber(h)
    assertProblem(await get(h, `/voice/numbers/${made.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/voice/numbers/num_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/voice/numbers/${'n'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/voice/numbers/${made.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
