import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { freePort } from '../../../test/spawn.js'
import type { DataSubject } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import { startTwilioServer } from './carriers/twilio.testkit.js'
import { advance, get, json, newNumber, ok, patch, post, voiceApp, type VoiceApp } from './voice.testkit.js'

const ADA: DataSubject = { email: null, phone: '+14155550101', external_id: null }
const NADA: DataSubject = { email: null, phone: '+14155550102', external_id: null }

describe('voice privacy and retention', () => {
  let h: VoiceApp
  let tw: Awaited<ReturnType<typeof startTwilioServer>>
  const live = (): Tenant => ({ workspaceId: h.a.workspaceId, mode: 'live' })
  const voice = () => h.app.kernel.modules.find((m) => m.name === 'voice')!
  const collect = (s: DataSubject, t = live()) => voice().privacy!.collect(h.app.kernel, h.app.services, t, s)
  const erase = (s: DataSubject, t = live()) => voice().privacy!.erase(h.app.kernel, h.app.services, t, s)

  before(async () => {
    tw = await startTwilioServer()
    const port = await freePort()
    h = await voiceApp({ PUBLIC_URL: `http://127.0.0.1:${port}` })
    await h.app.http.listen({ port, host: '127.0.0.1' })
  })
  after(async () => {
    await h.close()
    await tw.close()
  })

  it('finds outbound calls to the phone with transcripts and recordings; erase deletes the audio and the words, keeps the call anonymised', async () => {
    const num = await newNumber(h, { greeting: 'Hello, this is Acme calling about your delivery.' })
    const place = (to: string) => ok(post(h, '/voice/calls', { from_number_id: num.id, to, record: true, script: ['Hi, I am calling about my parcel.'] }), 201)
    const ada = await advance(h, (await place(ADA.phone!)).id)
    const nada = await advance(h, (await place(NADA.phone!)).id)
    assert.equal(ada.transcript.status, 'ready')
    assert.equal((await ok(get(h, `/voice/calls/${ada.id}/recording`))).status, 'ready')

    const found = await collect(ADA)
    assert.deepEqual(
      found.records.calls.map((c: any) => c.id),
      [ada.id],
    )
    assert.deepEqual((found.records.calls[0] as any).to, ADA.phone)
    assert.deepEqual(
      found.records.transcripts.map((t: any) => t.call_id),
      [ada.id],
    )
    assert.ok((found.records.transcripts[0] as any).segments.length > 0)
    assert.equal(found.files.length, 1)
    const file = found.files[0]
    assert.equal(file.name, `recordings/${ada.id}.wav`)
    assert.equal(file.contentType, 'audio/wav')
    assert.ok(await h.app.kernel.blobs.stat(file.key))
    assert.deepEqual(found.ids, [ada.id])
    assert.deepEqual(
      (await collect(NADA)).records.calls.map((c: any) => c.id),
      [nada.id],
    )
    // Our own number is not a data subject's.
    assert.deepEqual((await collect({ email: null, phone: num.phone_number, external_id: null })).records.calls, [])

    assert.deepEqual(await erase(ADA), { deleted: 1, anonymised: 1 })
    assert.equal(await h.app.kernel.blobs.stat(file.key), null)
    const call = await ok(get(h, `/voice/calls/${ada.id}`))
    assert.equal(call.to, '+00000000000')
    assert.equal(call.from, num.phone_number)
    assert.equal(call.status, 'completed')
    assert.equal(call.recording.status, 'none')
    const recording = await get(h, `/voice/calls/${ada.id}/recording`)
    assert.equal(recording.statusCode, 404)
    assert.match(json(recording).detail, /erased/)
    assert.deepEqual(await ok(get(h, `/voice/calls/${ada.id}/transcript`)), { object: 'voice_transcript', call_id: ada.id, status: 'unavailable', reason: 'erased', language: null, segments: [] })
    const again = await collect(ADA)
    assert.deepEqual(again, { records: { calls: [], transcripts: [] }, files: [], ids: [] })

    const kept = await collect(NADA)
    assert.equal(kept.files.length, 1)
    assert.ok(await h.app.kernel.blobs.stat(kept.files[0].key))
    assert.equal((await ok(get(h, `/voice/calls/${nada.id}/transcript`))).status, 'ready')

    assert.deepEqual(await erase(ADA), { deleted: 0, anonymised: 0 })
  })

  it('finds an inbound call by its caller, and anonymises the caller only', async () => {
    const t: Tenant = { workspaceId: h.b.workspaceId, mode: 'live' }
    await ok(patch(h, `/workspaces/${h.b.workspaceId}`, { voice: { provider: 'twilio', account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url } }, h.b.live))
    const num = await ok(post(h, '/voice/numbers', { country: 'US', area_code: '415', greeting: 'Hello from Globex.' }, { key: h.b.live }), 201)
    const rang = await tw.inbound({ to: num.phone_number, from: ADA.phone! })
    assert.equal(rang.status, 200)
    await tw.advance(rang.callSid, 'completed', { duration: 3 })
    const [inbound] = (await ok(get(h, '/voice/calls?direction=inbound', h.b.live))).data
    assert.equal(inbound.from, ADA.phone)

    assert.deepEqual((await collect(ADA, t)).ids, [inbound.id])
    assert.deepEqual((await collect(ADA)).ids, [], 'the other workspace has none of it')
    assert.deepEqual(await erase(ADA, t), { deleted: 0, anonymised: 1 })
    const call = await ok(get(h, `/voice/calls/${inbound.id}`, h.b.live))
    assert.deepEqual([call.from, call.to], ['+00000000000', num.phone_number])
    assert.deepEqual((await collect(ADA, t)).ids, [])
  })

  it('retention: recordings and transcripts of calls ended before the cutoff are removed; newer ones stay', async () => {
    const t: Tenant = { workspaceId: h.a.workspaceId, mode: 'test' }
    const sandbox = (method: 'GET' | 'POST', url: string, payload?: object) => h.request({ method, url: `/sandbox/v2${url}`, key: h.a.test, ...(payload ? { payload } : {}) })
    const num = await ok(sandbox('POST', '/voice/numbers', { country: 'US', greeting: 'Hello from the sandbox.' }), 201)
    const settle = async (id: string) => {
      for (let s = 0; s < 600; s++) {
        await h.drainJobs()
        const c = await ok(sandbox('GET', `/voice/calls/${id}`))
        if (c.status === 'completed' && c.recording.status === 'ready' && c.transcript.status === 'ready') return c
        h.clock.advance(1000)
      }
      throw new Error(`call ${id} did not settle`)
    }
    const place = async () => settle((await ok(sandbox('POST', '/voice/calls', { from_number_id: num.id, to: '+14155550199', record: true, script: ['Hello?'] }), 201)).id)
    const old = await place()
    h.clock.advance(3 * 86400_000)
    const fresh = await place()
    const cutoff = new Date(h.clock.now().getTime() - 86400_000).toISOString()
    const cls = (name: string) => voice().retention!.find((c) => c.name === name)!
    const oldRow = await h.app.kernel.db.selectFrom('voice_calls').select('recording_key').where('id', '=', old.id).executeTakeFirstOrThrow()

    assert.equal(await cls('call_recordings').count(h.app.kernel, t, cutoff), 1)
    assert.equal(await cls('transcripts').count(h.app.kernel, t, cutoff), 1)
    assert.equal(await cls('call_recordings').purge(h.app.kernel, t, cutoff, 500), 1)
    assert.equal(await cls('transcripts').purge(h.app.kernel, t, cutoff, 500), 1)
    assert.equal(await cls('call_recordings').count(h.app.kernel, t, cutoff), 0)
    assert.equal(await cls('transcripts').count(h.app.kernel, t, cutoff), 0)
    assert.equal(await h.app.kernel.blobs.stat(oldRow.recording_key!), null)

    const gone = await sandbox('GET', `/voice/calls/${old.id}/recording`)
    assert.equal(gone.statusCode, 404)
    assert.match(json(gone).detail, /retention/)
    const transcript = await ok(sandbox('GET', `/voice/calls/${old.id}/transcript`))
    assert.deepEqual([transcript.status, transcript.reason, transcript.segments], ['unavailable', 'retention', []])
    assert.equal((await ok(sandbox('GET', `/voice/calls/${fresh.id}/recording`))).status, 'ready')
    assert.equal((await ok(sandbox('GET', `/voice/calls/${fresh.id}/transcript`))).status, 'ready')
  })
})
