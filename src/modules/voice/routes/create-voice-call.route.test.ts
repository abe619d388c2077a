import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { enqueue } from '../../../kernel/jobs/jobs.js'
import { advance, assertProblem, events, get, newNumber, ok, post, voiceApp, voiceBot, type VoiceApp } from '../voice.testkit.js'

describe('createVoiceCall / getVoiceCall / listVoiceCalls on the simulated carrier', () => {
  let h: VoiceApp
  let num: any
  before(async () => {
    h = await voiceApp()
    num = await newNumber(h, { greeting: 'Hello, this is Acme calling about your delivery.' })
  })
  after(() => h.close())

  const place = (body: Record<string, unknown>) => ok(post(h, '/voice/calls', { from_number_id: num.id, ...body }), 201)

  it('each sandbox test destination reaches its final state, with the time of every step', async () => {
    const expected: Record<string, string[]> = {
      '+15005550006': ['queued', 'ringing', 'in_progress', 'completed'],
      '+15005550007': ['queued', 'ringing', 'busy'],
      '+15005550008': ['queued', 'ringing', 'no_answer'],
      '+15005550009': ['queued', 'failed'],
    }
    for (const [to, statuses] of Object.entries(expected)) {
      const created = await place({ to })
      assert.equal(created.status, 'queued')
      assert.match(created.conversation_id, /^conv_/)
      const call = await advance(h, created.id)
      assert.deepEqual(
        call.history.map((s: any) => s.status),
        statuses,
        to,
      )
      const times = call.history.map((s: any) => Date.parse(s.at))
      assert.deepEqual(
        [...times].sort((a, b) => a - b),
        times,
        'steps in time order',
      )
      assert.equal(call.status, statuses.at(-1))
      assert.ok(call.ended_at)
      if (call.status === 'completed') {
        assert.ok(call.duration_seconds > 0)
        assert.equal(call.duration_seconds, Math.ceil((Date.parse(call.ended_at) - Date.parse(call.answered_at)) / 1000))
      } else {
        assert.equal(call.duration_seconds, 0)
        assert.equal(call.answered_at, null)
        assert.equal(call.transcript.status, 'unavailable')
      }
    }
    const usage = await ok(get(h, `/workspaces/${h.a.workspaceId}/usage?from=2026-11-28&to=2026-11-28`))
    assert.equal(usage.totals.voice_calls, 4)
    assert.equal(usage.totals.voice_minutes, 1, 'the answered call, rounded up to a minute; unanswered ones are free')
    const busy = (await ok(get(h, '/voice/calls?status=busy'))).data
    assert.equal(busy.length, 1)
    assert.equal(busy[0].to, '+15005550007')
  })

  it('events follow the call: queued, ringing, answered, completed, transcript ready', async () => {
    const created = await place({ to: '+15005550006' })
    await advance(h, created.id)
    for (const type of ['call.queued', 'call.ringing', 'call.answered', 'call.completed', 'call.transcript.ready']) {
      assert.ok(
        (await events(h, type)).some((e) => (e.id ?? e.call_id) === created.id),
        type,
      )
    }
    assert.ok((await events(h, 'call.failed')).some((e) => e.status === 'busy'))
  })

  it('a recorded call yields a WAV whose duration soxi reads as reported, and a transcript in time order that became messages', async () => {
    const bot = await voiceBot(h)
    const created = await place({ to: '+14155550123', bot_id: bot.id, record: true, script: ['When are parcels delivered?', 'Can I return a parcel?'] })
    const call = await advance(h, created.id)
    assert.equal(call.status, 'completed')
    const meta = await ok(get(h, `/voice/calls/${call.id}/recording`))
    assert.equal(meta.status, 'ready')
    assert.equal(meta.format, 'audio/wav')
    const res = await h.request({ method: 'GET', url: `/v2/voice/calls/${call.id}/recording?format=wav` })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['content-type'], 'audio/wav')
    assert.equal(res.rawPayload.length, meta.size_bytes)
    const dir = mkdtempSync(join(tmpdir(), 'voice-wav-'))
    try {
      writeFileSync(join(dir, 'call.wav'), res.rawPayload)
      const seconds = Number(execFileSync('soxi', ['-D', join(dir, 'call.wav')], { encoding: 'utf8' }))
      assert.ok(Math.abs(seconds * 1000 - meta.duration_ms) <= meta.duration_ms * 0.05, `soxi ${seconds}s vs reported ${meta.duration_ms}ms`)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
    // The same audio by content negotiation, and a byte range of it.
    const negotiated = await h.request({ method: 'GET', url: `/v2/voice/calls/${call.id}/recording`, headers: { accept: 'audio/wav' } })
    assert.equal(negotiated.statusCode, 200)
    assert.equal(negotiated.rawPayload.length, meta.size_bytes)
    const ranged = await h.request({ method: 'GET', url: `/v2/voice/calls/${call.id}/recording?format=wav`, headers: { range: 'bytes=0-43' } })
    assert.equal(ranged.statusCode, 206)
    assert.equal(ranged.headers['content-range'], `bytes 0-43/${meta.size_bytes}`)
    assert.equal(ranged.rawPayload.subarray(0, 4).toString(), 'RIFF')

    const transcript = await ok(get(h, `/voice/calls/${call.id}/transcript`))
    assert.equal(transcript.status, 'ready')
    const segs = transcript.segments
    assert.deepEqual(
      segs.map((s: any) => s.speaker),
      ['bot', 'caller', 'bot', 'caller', 'bot', 'bot'],
    )
    assert.match(segs[2].text, /9 AM|6 PM|same day/, 'the bot answered from its knowledge')
    for (const [i, s] of segs.entries()) {
      assert.ok(s.end_ms > s.start_ms)
      if (i > 0) assert.ok(s.start_ms >= segs[i - 1].end_ms, 'ordered and not overlapping')
    }
    assert.ok(segs.at(-1).end_ms <= meta.duration_ms)
    const messages = (await ok(get(h, `/inbox/conversations/${call.conversation_id}/messages?order=asc`))).data
    assert.deepEqual(
      messages.map((m: any) => [m.direction, m.content]),
      segs.map((s: any) => [s.speaker === 'caller' ? 'inbound' : 'outbound', s.text]),
    )
    assert.equal((await ok(get(h, `/inbox/conversations/${call.conversation_id}`))).channel, 'voice')
  })

  it('the recording is 404 when not recorded or before it exists, and 409 for audio while processing', async () => {
    const plain = await place({ to: '+15005550006' })
    assertProblem(await get(h, `/voice/calls/${plain.id}/recording`), 404, 'recording_not_found')
    const recorded = await place({ to: '+15005550006', record: true })
    assertProblem(await get(h, `/voice/calls/${recorded.id}/recording`), 404, 'recording_not_found')
    const live = await advance(h, recorded.id, (c) => c.status === 'in_progress')
    assert.equal((await ok(get(h, `/voice/calls/${live.id}/recording`))).status, 'processing')
    assertProblem(await h.request({ method: 'GET', url: `/v2/voice/calls/${live.id}/recording?format=wav` }), 409, 'recording_not_ready')
    const unanswered = await place({ to: '+15005550008', record: true })
    await advance(h, unanswered.id)
    assertProblem(await get(h, `/voice/calls/${unanswered.id}/recording`), 404, 'recording_not_found')
  })

  it('a step run again (a job taken over after a crash) changes nothing: one history entry, one event each', async () => {
    const created = await place({ to: '+15005550006', script: ['Hello?'] })
    const call = await advance(h, created.id)
    const services = h.app.services.voice
    for (const to of ['ringing', 'in_progress', 'completed'] as const) {
      await h.app.kernel.transaction(null, (tx) => enqueue(tx, h.app.kernel.clock, services.simStepJob, { workspace_id: h.a.workspaceId, mode: 'live', call_id: call.id, seq: 0, to }))
    }
    await h.drainJobs()
    const again = await ok(get(h, `/voice/calls/${call.id}`))
    assert.deepEqual(again.history, call.history)
    assert.equal((await events(h, 'call.answered')).filter((e) => e.id === call.id).length, 1)
    assert.equal((await events(h, 'call.completed')).filter((e) => e.id === call.id).length, 1)
    const messages = (await ok(get(h, `/inbox/conversations/${call.conversation_id}/messages`))).data
    assert.equal(messages.length, (await ok(get(h, `/voice/calls/${call.id}/transcript`))).segments.length)
  })

  it('bad input: invalid E.164 is 422, another workspace’s number is 404', async () => {
    for (const to of ['12345', '+1555', 'not a number', '+4420794601']) {
      assertProblem(await post(h, '/voice/calls', { from_number_id: num.id, to }), 422, 'validation_failed')
    }
    const theirs = await newNumber(h, {}, h.b.live)
    assertProblem(await post(h, '/voice/calls', { from_number_id: theirs.id, to: '+15005550006' }), 422, 'invalid_reference')
    assertProblem(await get(h, `/voice/calls/${(await place({ to: '+15005550006' })).id}`, h.b.live), 404, 'resource_not_found')
  })
})
