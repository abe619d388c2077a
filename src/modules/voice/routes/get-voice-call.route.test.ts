import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, assertProblem, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

// create-voice-call.route.test.ts follows every outcome through getVoiceCall; this file holds its own promises.
describe('getVoiceCall (GET /voice/calls/{id})', () => {
  let h: VoiceApp
  let num: any
  before(async () => {
    h = await voiceApp()
    num = await newNumber(h)
  })
  after(() => h.close())

  it('answers the queued call as placed, then the ended call with the time of each step and its duration', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006', metadata: { order: 'ord_7' } }), 201)
    const queued = await ok(get(h, `/voice/calls/${created.id}`))
    assert.match(queued.id, /^call_/)
    assert.equal(queued.object, 'voice_call')
    assert.equal(queued.status, 'queued')
    assert.equal(queued.direction, 'outbound')
    assert.equal(queued.from, num.phone_number)
    assert.equal(queued.to, '+15005550006')
    assert.equal(queued.answered_at, null)
    assert.deepEqual(
      queued.history.map((s: any) => [s.status, s.at]),
      [['queued', '2026-11-28T09:00:00.000Z']],
    )
    const done = await advance(h, created.id)
    assert.equal(done.status, 'completed')
    assert.deepEqual(
      done.history.map((s: any) => s.status),
      ['queued', 'ringing', 'in_progress', 'completed'],
    )
    assert.equal(done.duration_seconds, Math.ceil((Date.parse(done.ended_at) - Date.parse(done.answered_at)) / 1000))
    assert.ok(done.duration_seconds > 0)
  })

  it("another workspace's call and an unknown id are 404; an over-long id is 422; the read scope is required", async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550007' }), 201)
    assertProblem(await get(h, `/voice/calls/${created.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/voice/calls/call_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/voice/calls/${'c'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/voice/calls/${created.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
