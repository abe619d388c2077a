import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { isValidE164 } from '../simulated/sim-numbers.js'
import { assertProblem, events, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

describe('provisionVoiceNumber / listVoiceNumbers', () => {
  let h: VoiceApp
  before(async () => (h = await voiceApp()))
  after(() => h.close())

  it('hands out only numbers reserved for fiction, distinct across workspaces, valid E.164', async () => {
    const seen = new Set<string>()
    for (const [country, area, pattern] of [
      ['US', undefined, /^\+1415555010\d$/],
      ['US', '212', /^\+1212555010\d$/],
      ['CA', undefined, /^\+1613555010\d$/],
      ['GB', undefined, /^\+442079460\d{3}$/],
      ['GB', '161', /^\+441614960\d{3}$/],
      ['AU', undefined, /^\+6125550\d{4}$/],
    ] as const) {
      const n = await newNumber(h, { country, ...(area ? { area_code: area } : {}), friendly_name: `${country} line` })
      assert.match(n.phone_number, pattern)
      assert.ok(isValidE164(n.phone_number))
      assert.equal(n.carrier, 'simulated')
      assert.ok(!seen.has(n.phone_number))
      seen.add(n.phone_number)
    }
    const theirs = await newNumber(h, { country: 'US' }, h.b.live)
    assert.ok(!seen.has(theirs.phone_number), 'another workspace gets another number')
    assert.ok((await events(h, 'voice_number.provisioned')).length >= 7)
    const mine = (await ok(get(h, '/voice/numbers?country=GB'))).data
    assert.equal(mine.length, 2)
    assert.ok(!(await ok(get(h, '/voice/numbers'))).data.some((n: any) => n.id === theirs.id))
  })

  it('bad input: unknown country 422, area without a fictional range 422, both bot and agent 422, unknown bot 422 invalid_reference', async () => {
    assertProblem(await post(h, '/voice/numbers', { country: 'DE' }), 422, 'country_not_supported')
    assertProblem(await post(h, '/voice/numbers', { country: 'US', area_code: '555' }), 422, 'validation_failed')
    assertProblem(await post(h, '/voice/numbers', { country: 'us' }), 422, 'validation_failed')
    assertProblem(await post(h, '/voice/numbers', { country: 'US', bot_id: 'bot_x', agent_id: 'agt_x' }), 422, 'validation_failed')
    assertProblem(await post(h, '/voice/numbers', { country: 'US', bot_id: 'bot_01JD0000000000000000000000' }), 422, 'invalid_reference')
  })

  it('two at once in one area get two numbers', async () => {
    const [a, b] = await Promise.all([newNumber(h, { country: 'AU', area_code: '3' }), newNumber(h, { country: 'AU', area_code: '3' })])
    assert.notEqual(a.phone_number, b.phone_number)
  })
})
