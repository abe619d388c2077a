import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { spokenBy } from '../call-hangup.service.js'
import { advance, assertProblem, events, get, json, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

describe('hangupVoiceCall', () => {
  let h: VoiceApp
  let num: any
  before(async () => {
    h = await voiceApp()
    num = await newNumber(h, { greeting: 'Hello, this is Acme calling about your order.' })
  })
  after(() => h.close())

  const hangup = (id: string, key?: string) => h.request({ method: 'POST', url: `/v2/voice/calls/${id}/hangup`, ...(key ? { key } : {}) })
  const script = ['Hello, who is this?', 'I see, and what is this call about?', 'Could you call me back tomorrow morning?', 'Thanks, goodbye.']

  it('a ringing call is canceled and stays canceled; call.failed says why', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006', script }), 201)
    const ringing = await advance(h, created.id, (c) => c.status === 'ringing')
    const ended = await ok(hangup(ringing.id))
    assert.equal(ended.status, 'canceled')
    assert.equal(ended.end_reason, 'ended_by_api')
    assert.equal(ended.answered_at, null)
    assert.equal(ended.duration_seconds, 0)
    assert.deepEqual(
      ended.history.map((s: any) => s.status),
      ['queued', 'ringing', 'canceled'],
    )
    // The steps the simulation had queued (the answer) change nothing any more.
    h.clock.advance(60_000)
    await h.drainJobs()
    assert.equal((await ok(get(h, `/voice/calls/${created.id}`))).status, 'canceled')
    assert.ok((await events(h, 'call.failed')).some((e) => e.id === created.id && e.end_reason === 'ended_by_api'))
  })

  it('a call in progress completes now: billed to now, its transcript and recording what was said until then', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006', record: true, script }), 201)
    const live = await advance(h, created.id, (c) => c.status === 'in_progress')
    h.clock.advance(4_000)
    const ended = await ok(hangup(live.id))
    assert.equal(ended.status, 'completed')
    assert.equal(ended.end_reason, 'ended_by_api')
    assert.equal(Date.parse(ended.ended_at) - Date.parse(ended.answered_at), 4_000)
    assert.equal(ended.duration_seconds, 4)
    const done = await advance(h, created.id)
    const transcript = await ok(get(h, `/voice/calls/${created.id}/transcript`))
    assert.ok(transcript.segments.length >= 1)
    assert.ok(
      transcript.segments.every((s: any) => s.start_ms < 4_000 && s.end_ms <= 4_000),
      JSON.stringify(transcript.segments),
    )
    assert.ok(!transcript.segments.some((s: any) => s.text === 'Thanks, goodbye.'), 'what was not said yet is not in it')
    const rec = await ok(get(h, `/voice/calls/${created.id}/recording`))
    if (rec.status === 'ready') assert.equal(rec.duration_ms, Date.parse(done.ended_at) - Date.parse(done.answered_at))
    else assert.equal(rec.status, 'unavailable', 'no speech synthesiser here')
    assert.ok((await events(h, 'call.completed')).some((e) => e.id === created.id && e.end_reason === 'ended_by_api'))
  })

  it('an ended call is 409 call_ended; another workspace’s call is 404; the read scope cannot hang up', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550007' }), 201)
    const busy = await advance(h, created.id)
    assert.equal(busy.status, 'busy')
    const again = await hangup(created.id)
    assertProblem(again, 409, 'call_ended')
    // RFC 9457: `status` is the HTTP status; the call's own state is an extension member of its own.
    assert.equal(json(again).status, 409)
    assert.equal(json(again).call_status, 'busy')
    const theirs = await newNumber(h, {}, h.b.live)
    const theirCall = await ok(post(h, '/voice/calls', { from_number_id: theirs.id, to: '+15005550006' }, { key: h.b.live }), 201)
    assertProblem(await hangup(theirCall.id), 404, 'resource_not_found')
    assert.equal((await ok(get(h, `/voice/calls/${theirCall.id}`, h.b.live))).status, 'queued')
    const mine = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006' }), 201)
    assertProblem(await hangup(mine.id, await h.key(['read'])), 403)
    assert.equal((await ok(hangup(mine.id))).status, 'canceled')
  })

  it('spokenBy keeps the lines begun by then, the one being spoken cut there', () => {
    const lines = [
      { speaker: 'bot' as const, text: 'a', start_ms: 0, end_ms: 1000, confidence: null },
      { speaker: 'caller' as const, text: 'b', start_ms: 1500, end_ms: 3000, confidence: null },
      { speaker: 'bot' as const, text: 'c', start_ms: 3500, end_ms: 5000, confidence: null },
    ]
    assert.deepEqual(
      spokenBy(lines, 2000).map((l) => [l.text, l.end_ms]),
      [
        ['a', 1000],
        ['b', 2000],
      ],
    )
    assert.deepEqual(spokenBy(lines, 0), [])
    assert.deepEqual(spokenBy(lines, 9000), lines)
  })
})
