import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, assertProblem, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

// create-voice-call.route.test.ts checks a bot's transcript against the conversation; this file holds the read's states.
describe('getVoiceTranscript (GET /voice/calls/{id}/transcript)', () => {
  let h: VoiceApp
  let num: any
  before(async () => {
    h = await voiceApp()
    num = await newNumber(h, { greeting: 'Hello, this is Acme about your delivery.' })
  })
  after(() => h.close())

  it('is pending until the call ends, then the segments in time order with the caller lines as said', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006', script: ['Is my parcel coming today?', 'Thank you, goodbye.'] }), 201)
    const pending = await ok(get(h, `/voice/calls/${created.id}/transcript`))
    assert.equal(pending.object, 'voice_transcript')
    assert.equal(pending.call_id, created.id)
    assert.equal(pending.status, 'pending')
    assert.deepEqual(pending.segments, [])
    await advance(h, created.id)
    const t = await ok(get(h, `/voice/calls/${created.id}/transcript`))
    assert.equal(t.status, 'ready')
    assert.equal(t.segments[0].speaker, 'bot')
    assert.equal(t.segments[0].text, 'Hello, this is Acme about your delivery.')
    assert.deepEqual(
      t.segments.filter((s: any) => s.speaker === 'caller').map((s: any) => s.text),
      ['Is my parcel coming today?', 'Thank you, goodbye.'],
    )
    for (const [i, s] of t.segments.entries()) {
      assert.ok(s.end_ms > s.start_ms)
      if (i > 0) assert.ok(s.start_ms >= t.segments[i - 1].end_ms, 'in time order')
    }
  })

  it('is unavailable, with a reason, for a call not answered', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550007' }), 201)
    await advance(h, created.id)
    const t = await ok(get(h, `/voice/calls/${created.id}/transcript`))
    assert.equal(t.status, 'unavailable')
    assert.ok(t.reason)
    assert.deepEqual(t.segments, [])
  })

  it("another workspace's call and an unknown id are 404; the read scope is required", async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006' }), 201)
    assertProblem(await get(h, `/voice/calls/${created.id}/transcript`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/voice/calls/call_00000000000000000000000000/transcript'), 404, 'resource_not_found')
    assertProblem(await get(h, `/voice/calls/${'c'.repeat(65)}/transcript`), 422, 'validation_failed')
    assertProblem(await get(h, `/voice/calls/${created.id}/transcript`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
