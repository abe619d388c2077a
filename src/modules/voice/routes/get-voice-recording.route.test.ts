import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, assertProblem, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

const audio = (h: VoiceApp, id: string, headers: Record<string, string> = {}, key?: string) =>
  h.request({ method: 'GET', url: `/v2/voice/calls/${id}/recording?format=wav`, headers, ...(key ? { key } : {}) })

// create-voice-call.route.test.ts measures the WAV with soxi; this file holds the read's states and negotiation.
describe('getVoiceRecording (GET /voice/calls/{id}/recording)', () => {
  let h: VoiceApp
  let num: any
  let recorded: any
  before(async () => {
    h = await voiceApp()
    num = await newNumber(h)
    const c = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006', record: true, script: ['Hello, is this the shop?'] }), 201)
    recorded = await advance(h, c.id)
  })
  after(() => h.close())

  it('answers the metadata of a ready recording, and the audio by ?format=wav or Accept, with ranges', async () => {
    const meta = await ok(get(h, `/voice/calls/${recorded.id}/recording`))
    assert.equal(meta.object, 'voice_recording')
    assert.equal(meta.call_id, recorded.id)
    assert.equal(meta.status, 'ready')
    assert.equal(meta.format, 'audio/wav')
    assert.ok(meta.duration_ms > 0 && meta.size_bytes > 44)
    assert.match(meta.media_url, new RegExp(`/voice/calls/${recorded.id}/recording`))
    const wav = await audio(h, recorded.id)
    assert.equal(wav.statusCode, 200)
    assert.equal(wav.headers['content-type'], 'audio/wav')
    assert.equal(wav.rawPayload.length, meta.size_bytes)
    assert.equal(wav.rawPayload.subarray(0, 4).toString(), 'RIFF')
    const negotiated = await h.request({ method: 'GET', url: `/v2/voice/calls/${recorded.id}/recording`, headers: { accept: 'audio/wav' } })
    assert.deepEqual(negotiated.rawPayload, wav.rawPayload)
    const part = await audio(h, recorded.id, { range: 'bytes=4-11' })
    assert.equal(part.statusCode, 206)
    assert.deepEqual(part.rawPayload, wav.rawPayload.subarray(4, 12))
    assertProblem(await audio(h, recorded.id, { range: `bytes=${meta.size_bytes + 1}-` }), 416, 'range_not_satisfiable')
  })

  it('a call not recorded is 404 recording_not_found; audio while processing is 409 recording_not_ready', async () => {
    const plain = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006' }), 201)
    assertProblem(await get(h, `/voice/calls/${plain.id}/recording`), 404, 'recording_not_found')
    const live = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006', record: true }), 201)
    await advance(h, live.id, (c) => c.status === 'in_progress')
    assert.equal((await ok(get(h, `/voice/calls/${live.id}/recording`))).status, 'processing')
    assertProblem(await audio(h, live.id), 409, 'recording_not_ready')
  })

  it("another workspace's call is 404; a bad format is 422; the read scope is required", async () => {
    assertProblem(await get(h, `/voice/calls/${recorded.id}/recording`, h.b.live), 404, 'resource_not_found')
    assertProblem(await audio(h, recorded.id, {}, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, `/voice/calls/${recorded.id}/recording?format=mp3`), 422, 'validation_failed')
    assertProblem(await get(h, `/voice/calls/${recorded.id}/recording`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
