import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { freePort } from '../../../../test/spawn.js'
import { buildApp } from '../../../app.js'
import { startTranscriptionServer } from '../../../kernel/ai/transcribe.testkit.js'
import { advance, assertProblem, events, get, ok, patch, post, voiceApp, voiceBot, type VoiceApp } from '../voice.testkit.js'
import { startTwilioServer } from './twilio.testkit.js'
import type { TwilioCarriers } from './twilio-voice.js'

/** A two-channel WAV (caller left, us right) of `seconds`, made with sox. */
function stereoWav(seconds: number): Buffer {
  const dir = mkdtempSync(join(tmpdir(), 'twilio-wav-'))
  try {
    const file = join(dir, 'rec.wav')
    execFileSync('sox', ['-n', '-r', '8000', '-b', '16', '-c', '2', file, 'synth', String(seconds), 'sine', '440', 'sine', '660'])
    return readFileSync(file)
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

describe('voice on Twilio (a Twilio-compatible server on 127.0.0.1)', () => {
  let h: VoiceApp
  let tw: Awaited<ReturnType<typeof startTwilioServer>>
  let stt: Awaited<ReturnType<typeof startTranscriptionServer>>
  let num: any
  let bot: any
  before(async () => {
    tw = await startTwilioServer()
    stt = await startTranscriptionServer((upload) =>
      upload.file?.filename.endsWith('-1.wav')
        ? { segments: [{ start: 0.5, end: 2.1, text: 'Hi, I am calling about my parcel.', avg_logprob: -0.1 }], language: 'english' }
        : { segments: [{ start: 2.6, end: 4.0, text: 'It arrives today before six.', avg_logprob: -0.05 }], language: 'english' },
    )
    const port = await freePort()
    h = await voiceApp({ PUBLIC_URL: `http://127.0.0.1:${port}`, TRANSCRIPTION_BASE_URL: stt.baseUrl, TRANSCRIPTION_API_KEY: 'sk-test' })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    bot = await voiceBot(h)
    await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { voice: { provider: 'twilio', account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url } }))
    num = await ok(post(h, '/voice/numbers', { country: 'US', area_code: '415', bot_id: bot.id }), 201)
  })
  after(async () => {
    await h.close()
    await tw.close()
    await stt.close()
  })

  it('the workspace shows the account without its token; the sandbox refuses a carrier', async () => {
    const ws = await ok(get(h, `/workspaces/${h.a.workspaceId}`))
    assert.deepEqual({ ...ws.voice, updated_at: undefined }, { provider: 'twilio', account_sid: tw.accountSid, base_url: tw.url, auth_token_set: true, updated_at: undefined })
    assert.ok(!JSON.stringify(ws).includes(tw.authToken))
    const row = await h.app.kernel.db.selectFrom('workspace_settings').select('voice').where('workspace_id', '=', h.a.workspaceId).where('mode', '=', 'live').executeTakeFirstOrThrow()
    assert.ok(!row.voice!.includes(tw.authToken), 'sealed at rest')
    const sandbox = await h.request({
      method: 'PATCH',
      url: `/sandbox/v2/workspaces/${h.a.workspaceId}`,
      key: h.a.test,
      payload: { voice: { provider: 'twilio', account_sid: tw.accountSid, auth_token: tw.authToken } },
    })
    assertProblem(sandbox, 422, 'validation_failed')
  })

  it('keeps the auth token sealed under the current server secret after a rotation (reseal)', async () => {
    const live = { workspaceId: h.a.workspaceId, mode: 'live' as const }
    const read = async () =>
      (await h.app.kernel.db.selectFrom('workspace_settings').select('voice').where('workspace_id', '=', h.a.workspaceId).where('mode', '=', 'live').executeTakeFirstOrThrow()).voice!
    const before = await read()
    const next = randomBytes(32).toString('base64url')
    const rotated = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [h.config.serverSecret!] }, database: h.app.kernel.database })
    try {
      assert.equal(await rotated.services.workspaces.reseal(), 1)
      assert.equal(await rotated.services.workspaces.reseal(), 0)
    } finally {
      await rotated.http.close()
      await rotated.redis?.quit()
    }
    const after = await read()
    assert.notEqual(after, before)
    assert.deepEqual({ ...JSON.parse(after), auth_token_sealed: null }, { ...JSON.parse(before), auth_token_sealed: null }, 'only the token is sealed again')
    const only = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [] }, database: h.app.kernel.database })
    try {
      assert.equal(await (only.services.voice.carriers as TwilioCarriers).authToken(live), tw.authToken)
    } finally {
      await only.http.close()
      await only.redis?.quit()
      // Sealed under this app's secret again, for the tests after this one.
      await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { voice: { provider: 'twilio', account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url } }))
    }
  })

  it('provisions a number bought from the account, with our callback URLs', async () => {
    assert.equal(num.carrier, 'twilio')
    const bought = tw.requests.find((r) => r.method === 'POST' && r.path.endsWith('/IncomingPhoneNumbers.json'))!
    assert.equal(bought.form.get('PhoneNumber'), num.phone_number)
    assert.equal(bought.form.get('VoiceUrl'), `${h.config.publicUrl}/carriers/twilio/voice`)
    // The sandbox still gets a simulated number.
    const sandbox = await ok(h.request({ method: 'POST', url: '/sandbox/v2/voice/numbers', key: h.a.test, payload: { country: 'US' } }), 201)
    assert.equal(sandbox.carrier, 'simulated')
  })

  it('places a call, follows its status callbacks, answers the caller with the bot, transfers, stores the recording', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550177', record: true }), 201)
    assert.equal(created.carrier, 'twilio')
    await h.drainJobs()
    const placed = tw.requests.find((r) => r.method === 'POST' && r.path.endsWith('/Calls.json'))!
    assert.equal(placed.form.get('To'), '+14155550177')
    assert.equal(placed.form.get('From'), num.phone_number)
    assert.deepEqual(placed.form.getAll('StatusCallbackEvent'), ['initiated', 'ringing', 'answered', 'completed'])
    assert.equal(placed.form.get('Record'), 'true')
    assert.match(placed.form.get('Twiml')!, /<Gather[^>]*action="http:\/\/127\.0\.0\.1:\d+\/carriers\/twilio\/gather\?call=call_/)
    const row = await h.app.kernel.db.selectFrom('voice_calls').select('carrier_sid').where('id', '=', created.id).executeTakeFirstOrThrow()
    const sid = row.carrier_sid!
    assert.match(sid, /^CA[0-9a-f]{32}$/)

    assert.equal(await tw.advance(sid, 'ringing'), 204)
    assert.equal(await tw.advance(sid, 'in-progress'), 204)
    assert.equal((await ok(get(h, `/voice/calls/${created.id}`))).status, 'in_progress')

    const heard = await tw.gather(sid, 'When are parcels delivered?', 0.93)
    assert.equal(heard.status, 200)
    assert.match(heard.body, /<Say>[^<]*(9 AM|6 PM|same day)[^<]*<\/Say>/)
    assert.match(heard.body, /<Gather[^>]*turn=1/)

    const moved = await ok(post(h, `/voice/calls/${created.id}/transfer`, { to: { phone_number: '+14155550188' }, announcement: 'Transferring you now.' }))
    assert.equal(moved.transfers.length, 1)
    const update = tw.requests.find((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${sid}.json`))!
    assert.match(update.form.get('Twiml')!, /<Say>Transferring you now\.<\/Say><Dial callerId="\+1415555\d{4}">\+14155550188<\/Dial>/)

    assert.equal(await tw.advance(sid, 'completed', { duration: 12 }), 204)
    const done = await ok(get(h, `/voice/calls/${created.id}`))
    assert.equal(done.status, 'completed')
    assert.deepEqual(
      done.history.map((s: any) => s.status),
      ['queued', 'ringing', 'in_progress', 'completed'],
    )
    const transcript = await ok(get(h, `/voice/calls/${created.id}/transcript`))
    assert.equal(transcript.status, 'ready')
    assert.deepEqual(
      transcript.segments.map((s: any) => s.speaker),
      ['caller', 'bot'],
    )
    assert.equal(transcript.segments[0].confidence, 0.93)

    const wav = stereoWav(3)
    const rec = await tw.recordingReady(sid, wav, 3)
    assert.equal(rec.status, 204)
    await h.drainJobs()
    const meta = await ok(get(h, `/voice/calls/${created.id}/recording`))
    assert.equal(meta.status, 'ready')
    assert.equal(meta.channels, 2)
    assert.equal(meta.duration_ms, 3000)
    const audio = await h.request({ method: 'GET', url: `/v2/voice/calls/${created.id}/recording?format=wav` })
    assert.ok(Buffer.compare(audio.rawPayload, wav) === 0, 'the stored recording is Twilio’s')
    assert.ok((await events(h, 'call.recording.ready')).some((e) => e.call_id === created.id))
  })

  it('a recording without gathered speech is transcribed through the AI seam, one speaker per channel', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550178', record: true }), 201)
    await h.drainJobs()
    const sid = (await h.app.kernel.db.selectFrom('voice_calls').select('carrier_sid').where('id', '=', created.id).executeTakeFirstOrThrow()).carrier_sid!
    await tw.advance(sid, 'in-progress')
    await tw.advance(sid, 'completed', { duration: 5 })
    assert.equal((await ok(get(h, `/voice/calls/${created.id}/transcript`))).status, 'processing')
    await tw.recordingReady(sid, stereoWav(5), 5)
    await h.drainJobs()
    await h.drainJobs()
    const t = await ok(get(h, `/voice/calls/${created.id}/transcript`))
    assert.equal(t.status, 'ready', JSON.stringify(t))
    assert.equal(t.language, 'en')
    assert.deepEqual(
      t.segments.map((s: any) => [s.speaker, s.start_ms, s.text]),
      [
        ['caller', 500, 'Hi, I am calling about my parcel.'],
        ['bot', 2600, 'It arrives today before six.'],
      ],
    )
    assert.equal(stt.requests.length, 2)
  })

  it('answers an inbound call with the number’s bot; a callback with a bad signature is 403', async () => {
    const inbound = await tw.inbound({ to: num.phone_number, from: '+14155550166' })
    assert.equal(inbound.status, 200)
    assert.match(inbound.body, /<Gather[^>]*>.*<Say>Hi, this is Delivery bot\. How can I help you today\?<\/Say>/)
    const calls = (await ok(get(h, '/voice/calls?direction=inbound'))).data
    assert.equal(calls.length, 1)
    assert.equal(calls[0].from, '+14155550166')
    assert.equal(calls[0].status, 'in_progress')
    assert.equal(await tw.advance(inbound.callSid, 'completed', { duration: 3, badSignature: true }), 403)
    assert.equal((await ok(get(h, `/voice/calls/${calls[0].id}`))).status, 'in_progress', 'a forged callback changes nothing')
    const forged = await h.request({
      method: 'POST',
      url: `/carriers/twilio/status?call=${calls[0].id}`,
      key: null,
      payload: 'CallSid=CA00&CallStatus=completed',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' },
    })
    assertProblem(forged, 403, 'carrier_signature_invalid')
  })

  it('an unsigned callback is refused the same for our numbers and calls as for others (no enumeration)', async () => {
    const form = (to: string) => ({
      method: 'POST' as const,
      key: null,
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-twilio-signature': 'AAAA' },
      payload: `CallSid=CA${'0'.repeat(32)}&From=%2B14155550100&To=${encodeURIComponent(to)}`,
    })
    const ours = await h.request({ url: '/carriers/twilio/voice', ...form(num.phone_number) })
    const other = await h.request({ url: '/carriers/twilio/voice', ...form('+14155550999') })
    const unsigned = await h.request({ url: '/carriers/twilio/voice', ...form('+14155550999'), headers: { 'content-type': 'application/x-www-form-urlencoded' } })
    const unknownCall = await h.request({ url: '/carriers/twilio/status?call=call_01JD0000000000000000000000', ...form(num.phone_number) })
    for (const r of [ours, other, unsigned, unknownCall]) assertProblem(r, 403, 'carrier_signature_invalid')
    const same = (r: typeof ours) => ({ ...JSON.parse(r.body), request_id: undefined, instance: undefined })
    assert.deepEqual(same(other), same(ours), 'one answer for a number we have and one we do not')
    assert.deepEqual(same(unknownCall), same(ours))
  })

  it('a ringing status callback moves the call to ringing without an end reason', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550177' }), 201)
    await h.drainJobs()
    const sid = (await h.app.kernel.db.selectFrom('voice_calls').select('carrier_sid').where('id', '=', created.id).executeTakeFirstOrThrow()).carrier_sid!
    assert.equal(await tw.advance(sid, 'ringing'), 204)
    const ringing = await ok(get(h, `/voice/calls/${created.id}`))
    assert.equal(ringing.status, 'ringing')
    assert.equal(ringing.end_reason, null, 'a live call has no end reason')
    assert.equal(await tw.advance(sid, 'in-progress'), 204)
    assert.equal(await tw.advance(sid, 'completed', { duration: 2 }), 204)
    assert.equal((await ok(get(h, `/voice/calls/${created.id}`))).end_reason, 'hangup')
  })

  it('a placement Twilio refuses fails the call with Twilio’s message', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550179' }), 201)
    tw.failNext(400, { code: 21215, message: 'Geo Permission configuration is not permitting call' })
    await h.drainJobs()
    const call = await advance(h, created.id, (c) => c.status === 'failed', 5)
    assert.match(call.end_reason, /21215/)
  })

  it('renames and releases a Twilio number at Twilio; one already gone there is released here all the same', async () => {
    const mine = await ok(post(h, '/voice/numbers', { country: 'US', area_code: '212', friendly_name: 'Night line' }), 201)
    const sid = (await h.app.kernel.db.selectFrom('voice_numbers').select('carrier_sid').where('id', '=', mine.id).executeTakeFirstOrThrow()).carrier_sid!
    const long = `Night line for the ${'very '.repeat(12)}late shift`
    const renamed = await ok(patch(h, `/voice/numbers/${mine.id}`, { friendly_name: long }))
    assert.equal(renamed.friendly_name, long, 'ours keeps the whole name')
    assert.equal(tw.numbers.get(sid)!.friendly_name.length, 64, 'Twilio keeps 64 characters')
    assert.ok(long.startsWith(tw.numbers.get(sid)!.friendly_name.slice(0, 63)))

    tw.failNext(500)
    assertProblem(await h.request({ method: 'DELETE', url: `/v2/voice/numbers/${mine.id}` }), 502, 'carrier_error')
    assert.ok(tw.numbers.has(sid), 'still owned at Twilio')
    await ok(get(h, `/voice/numbers/${mine.id}`))
    assert.deepEqual(await ok(h.request({ method: 'DELETE', url: `/v2/voice/numbers/${mine.id}` })), { id: mine.id, object: 'voice_number', phone_number: mine.phone_number, deleted: true })
    assert.ok(!tw.numbers.has(sid), 'released from the account')
    const deleted = tw.requests.filter((r) => r.method === 'DELETE')
    assert.equal(deleted.at(-1)!.path, `/2010-04-01/Accounts/${tw.accountSid}/IncomingPhoneNumbers/${sid}.json`)

    const console = await ok(post(h, '/voice/numbers', { country: 'US', area_code: '212' }), 201)
    const consoleSid = (await h.app.kernel.db.selectFrom('voice_numbers').select('carrier_sid').where('id', '=', console.id).executeTakeFirstOrThrow()).carrier_sid!
    tw.numbers.delete(consoleSid)
    await ok(h.request({ method: 'DELETE', url: `/v2/voice/numbers/${console.id}` }))
    assertProblem(await get(h, `/voice/numbers/${console.id}`), 404, 'resource_not_found')

    const stranded = await ok(post(h, '/voice/numbers', { country: 'US', area_code: '212' }), 201)
    await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { voice: null }))
    try {
      assertProblem(await h.request({ method: 'DELETE', url: `/v2/voice/numbers/${stranded.id}` }), 409, 'carrier_not_configured')
      assertProblem(await patch(h, `/voice/numbers/${stranded.id}`, { friendly_name: 'Renamed' }), 409, 'carrier_not_configured')
      assert.equal((await ok(patch(h, `/voice/numbers/${stranded.id}`, { greeting: 'Still here.' }))).answer.greeting, 'Still here.', 'what answers is ours alone')
    } finally {
      await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { voice: { provider: 'twilio', account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url } }))
    }
    await ok(h.request({ method: 'DELETE', url: `/v2/voice/numbers/${stranded.id}` }))
  })

  it('hangs up a call in progress at Twilio; the late callback of its end changes nothing', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550181' }), 201)
    await h.drainJobs()
    const sid = (await h.app.kernel.db.selectFrom('voice_calls').select('carrier_sid').where('id', '=', created.id).executeTakeFirstOrThrow()).carrier_sid!
    await tw.advance(sid, 'ringing')
    await tw.advance(sid, 'in-progress')
    const ended = await ok(post(h, `/voice/calls/${created.id}/hangup`))
    assert.equal(ended.status, 'completed')
    assert.equal(ended.end_reason, 'ended_by_api')
    const update = tw.requests.filter((r) => r.method === 'POST' && r.path.endsWith(`/Calls/${sid}.json`)).at(-1)!
    assert.equal(update.form.get('Status'), 'completed')
    assert.equal(tw.calls.get(sid)!.status, 'completed')
    assert.equal(await tw.advance(sid, 'completed', { duration: 9 }), 204)
    const after = await ok(get(h, `/voice/calls/${created.id}`))
    assert.equal(after.end_reason, 'ended_by_api')
    assert.equal(after.ended_at, ended.ended_at)
    assertProblem(await post(h, `/voice/calls/${created.id}/hangup`), 409, 'call_ended')
  })

  it('a call answered at Twilio while the hang-up is on its way is completed, not refused', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550183' }), 201)
    await h.drainJobs()
    const sid = (await h.app.kernel.db.selectFrom('voice_calls').select('carrier_sid').where('id', '=', created.id).executeTakeFirstOrThrow()).carrier_sid!
    await tw.advance(sid, 'ringing')
    // Read ringing by the hang-up; answered (its callback committed here) before Twilio takes the end.
    tw.beforeNext(() => tw.advance(sid, 'in-progress'))
    const ended = await ok(post(h, `/voice/calls/${created.id}/hangup`))
    assert.equal(ended.status, 'completed')
    assert.equal(ended.end_reason, 'ended_by_api')
    assert.ok(ended.answered_at)
    assert.equal(tw.calls.get(sid)!.status, 'completed')
  })

  it('a call hung up while Twilio was still placing it is ended there when its first callback names it', async () => {
    const created = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550182' }), 201)
    // The placement's request is at Twilio and its answer has not come back: the call is only marked.
    await h.app.kernel.db
      .updateTable('voice_calls')
      .set({ carrier_sid: `placing:${created.id}` })
      .where('id', '=', created.id)
      .execute()
    const ended = await ok(post(h, `/voice/calls/${created.id}/hangup`))
    assert.equal(ended.status, 'canceled')
    // Twilio made the call all the same (as our placement asked), and reports it ringing.
    const auth = `Basic ${Buffer.from(`${tw.accountSid}:${tw.authToken}`).toString('base64')}`
    const form = new URLSearchParams({
      To: '+14155550182',
      From: num.phone_number,
      Twiml: '<Response><Say>Hello</Say></Response>',
      StatusCallback: `${h.config.publicUrl}/carriers/twilio/status?call=${created.id}`,
    })
    for (const e of ['initiated', 'ringing', 'answered', 'completed']) form.append('StatusCallbackEvent', e)
    const made = await fetch(`${tw.url}/2010-04-01/Accounts/${tw.accountSid}/Calls.json`, {
      method: 'POST',
      headers: { authorization: auth, 'content-type': 'application/x-www-form-urlencoded' },
      body: form,
    })
    const sid = ((await made.json()) as { sid: string }).sid
    assert.equal(await tw.advance(sid, 'ringing'), 204)
    assert.equal(tw.calls.get(sid)!.status, 'canceled', 'ended at Twilio')
    const row = await h.app.kernel.db.selectFrom('voice_calls').select(['carrier_sid', 'status']).where('id', '=', created.id).executeTakeFirstOrThrow()
    assert.deepEqual(row, { carrier_sid: sid, status: 'canceled' })
    const placed = tw.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json')).length
    await h.drainJobs()
    assert.equal(tw.requests.filter((r) => r.method === 'POST' && r.path.endsWith('/Calls.json')).length, placed, 'the placement does not place it')
  })
})
