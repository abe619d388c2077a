import assert from 'node:assert/strict'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, beforeEach, describe, it } from 'node:test'
import { systemClock } from '../../../kernel/clock.js'
import type { Kernel } from '../../../kernel/kernel.js'
import { CarrierError, type TwilioCredentials } from './carrier.types.js'
import { TwilioAdapter, type TwilioAdapterOptions } from './twilio.adapter.js'
import { twilioParams, verifyTwilioSignature } from '../../../kernel/twilio/signature.js'
import { startTwilioServer, type TwilioServer } from './twilio.testkit.js'
import { dial, gather, hangup, response, say } from './twiml.js'

// The adapter reads only the outbound policy from the kernel.
const kernelStub = (allowPrivateNetworks = true) => ({ config: { outbound: { allowPrivateNetworks } }, clock: systemClock }) as unknown as Kernel

/** Our side of the webhooks: checks X-Twilio-Signature as the voice module will, answers TwiML. */
async function startReceiver(authToken: string, answer: (path: string, form: URLSearchParams) => string = () => response(hangup())) {
  const seen: Array<{ path: string; form: URLSearchParams; valid: boolean }> = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      const form = new URLSearchParams(raw)
      const url = `${base}${req.url}`
      const valid = verifyTwilioSignature(authToken, url, twilioParams(form), req.headers['x-twilio-signature'])
      seen.push({ path: req.url ?? '', form, valid })
      if (!valid) return res.writeHead(403).end()
      res.writeHead(200, { 'content-type': 'text/xml' }).end(answer(req.url ?? '', form))
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return { base, seen, close: () => new Promise<void>((resolve) => (server.closeAllConnections(), server.close(() => resolve()))) }
}

async function carrierError(p: Promise<unknown>): Promise<CarrierError> {
  try {
    await p
  } catch (err) {
    assert.ok(err instanceof CarrierError, `expected a CarrierError, got ${String(err)}`)
    return err
  }
  assert.fail('expected a CarrierError')
}

describe('voice twilio: adapter against a Twilio-compatible server', () => {
  let tw: TwilioServer
  let hooks: Awaited<ReturnType<typeof startReceiver>>
  let creds: TwilioCredentials
  const adapter = (c: Partial<TwilioCredentials> = {}, opts?: TwilioAdapterOptions, allowPrivate = true) => new TwilioAdapter(kernelStub(allowPrivate), { ...creds, ...c }, opts)
  const FROM = '+14155550100'

  before(async () => {
    tw = await startTwilioServer()
    hooks = await startReceiver(tw.authToken, (path) =>
      path === '/voice' ? response(gather({ action: '/gather?step=1&x=a', language: 'en-US' }, say('How can we help?'))) : response(say('Thanks & bye'), hangup()),
    )
    creds = { account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url }
  })
  beforeEach(() => {
    tw.reset()
    hooks.seen.length = 0
  })
  after(async () => {
    await tw.close()
    await hooks.close()
  })

  const newCall = (over: Partial<Parameters<TwilioAdapter['createCall']>[0]> = {}) =>
    adapter().createCall({
      to: '+14155550199',
      from: FROM,
      twiml: response(say('Hello from the service')),
      statusCallback: `${hooks.base}/status?call=vc_1`,
      record: true,
      recordingStatusCallback: `${hooks.base}/recording?call=vc_1`,
      ...over,
    })

  it('searches a local number with voice and buys it with our webhooks', async () => {
    const found = await adapter().searchNumber('us', '415')
    assert.deepEqual(found, { phone_number: '+14155550100', friendly_name: '(415) 555-0100', capabilities: { voice: true, sms: true } })
    const search = new URL(tw.requests[0].path, tw.url)
    assert.equal(search.pathname, `/2010-04-01/Accounts/${tw.accountSid}/AvailablePhoneNumbers/US/Local.json`)
    assert.deepEqual(Object.fromEntries(search.searchParams), { AreaCode: '415', VoiceEnabled: 'true', PageSize: '1' })

    const bought = await adapter().buyNumber(found!.phone_number, { friendlyName: 'Sales line', voiceUrl: `${hooks.base}/voice`, statusCallback: `${hooks.base}/status` })
    assert.match(bought.sid, /^PN[0-9a-f]{32}$/)
    assert.deepEqual({ ...bought, sid: undefined }, { sid: undefined, phone_number: '+14155550100', friendly_name: 'Sales line', capabilities: { voice: true, sms: true } })
    const buy = tw.requests[1]
    assert.equal(buy.method, 'POST')
    assert.equal(buy.path, `/2010-04-01/Accounts/${tw.accountSid}/IncomingPhoneNumbers.json`)
    assert.match(String(buy.headers['content-type']), /^application\/x-www-form-urlencoded/)
    assert.deepEqual(Object.fromEntries(buy.form), {
      PhoneNumber: '+14155550100',
      FriendlyName: 'Sales line',
      VoiceUrl: `${hooks.base}/voice`,
      VoiceMethod: 'POST',
      StatusCallback: `${hooks.base}/status`,
      StatusCallbackMethod: 'POST',
    })
    for (const r of tw.requests) assert.equal(r.headers.authorization, `Basic ${Buffer.from(`${tw.accountSid}:${tw.authToken}`).toString('base64')}`)

    assert.equal((await adapter().searchNumber('US', '415'))?.phone_number, '+14155550101', 'an owned number is not offered again')
    assert.equal(await adapter().searchNumber('US', '099'), null, 'nothing found is null, not an error')
    assert.equal((await adapter().searchNumber('GB', null))?.phone_number, '+442079460000')
    const taken = await carrierError(adapter().buyNumber('+14155550100', { friendlyName: 'x', voiceUrl: `${hooks.base}/voice`, statusCallback: `${hooks.base}/status` }))
    assert.deepEqual([taken.message, taken.retryable, taken.status, taken.carrierCode], ['Twilio 21422: PhoneNumber +14155550100 is not available', false, 400, 21422])
  })

  it('creates a call with TwiML, every status event (repeated StatusCallbackEvent) and a dual-channel recording', async () => {
    tw.seedNumber(FROM)
    const call = await newCall()
    assert.match(call.sid, /^CA[0-9a-f]{32}$/)
    assert.equal(call.status, 'queued')
    const req = tw.requests.at(-1)!
    assert.equal(req.path, `/2010-04-01/Accounts/${tw.accountSid}/Calls.json`)
    assert.deepEqual(req.form.getAll('StatusCallbackEvent'), ['initiated', 'ringing', 'answered', 'completed'])
    assert.equal(req.form.get('Twiml'), '<?xml version="1.0" encoding="UTF-8"?><Response><Say>Hello from the service</Say></Response>')
    const fields = Object.fromEntries([...new Set(req.form.keys())].filter((k) => k !== 'StatusCallbackEvent' && k !== 'Twiml').map((k) => [k, req.form.get(k)]))
    assert.deepEqual(fields, {
      To: '+14155550199',
      From: FROM,
      StatusCallback: `${hooks.base}/status?call=vc_1`,
      StatusCallbackMethod: 'POST',
      Record: 'true',
      RecordingChannels: 'dual',
      RecordingStatusCallback: `${hooks.base}/recording?call=vc_1`,
      RecordingStatusCallbackMethod: 'POST',
      RecordingStatusCallbackEvent: 'completed',
    })

    await newCall({ record: false })
    const plain = tw.requests.at(-1)!.form
    assert.equal(plain.has('Record'), false)
    assert.equal(plain.has('RecordingStatusCallback'), false)
  })

  it('updates a live call with TwiML (a transfer) and ends it; an ended call refuses both', async () => {
    tw.seedNumber(FROM)
    const call = await newCall()
    await tw.advance(call.sid, 'in-progress')
    const transfer = response(say('Putting you through to "Sales" & more <now>'), dial('+14155550142', { callerId: FROM }))
    assert.deepEqual(await adapter().updateCall(call.sid, { twiml: transfer }), { sid: call.sid, status: 'in_progress' })
    const req = tw.requests.at(-1)!
    assert.equal(req.path, `/2010-04-01/Accounts/${tw.accountSid}/Calls/${call.sid}.json`)
    assert.deepEqual(Object.fromEntries(req.form), { Twiml: transfer })
    assert.equal(tw.calls.get(call.sid)!.twiml, transfer)
    assert.match(transfer, /<Say>Putting you through to "Sales" &amp; more &lt;now&gt;<\/Say><Dial callerId="\+14155550100">\+14155550142<\/Dial>/)

    assert.deepEqual(await adapter().updateCall(call.sid, { status: 'completed' }), { sid: call.sid, status: 'completed' })
    assert.deepEqual(Object.fromEntries(tw.requests.at(-1)!.form), { Status: 'completed' })
    const ended = await carrierError(adapter().updateCall(call.sid, { twiml: transfer }))
    assert.deepEqual([ended.message, ended.retryable, ended.status, ended.carrierCode], ['Twilio 21220: Call is not in-progress. Cannot redirect.', false, 400, 21220])

    const queued = await newCall()
    assert.deepEqual(await adapter().updateCall(queued.sid, { status: 'canceled' }), { sid: queued.sid, status: 'canceled' })
    const unknown = await carrierError(adapter().updateCall('CA00000000000000000000000000000000', { status: 'completed' }))
    assert.deepEqual([unknown.retryable, unknown.status, unknown.carrierCode], [false, 404, 20404])
  })

  it("Twilio's errors become CarrierErrors: 4xx permanent with Twilio's code, 429 / 5xx / timeouts / network retryable", async () => {
    tw.seedNumber(FROM)
    const invalid = await carrierError(newCall({ to: '+1555' }))
    assert.deepEqual([invalid.message, invalid.retryable, invalid.status, invalid.carrierCode], ["Twilio 21211: The 'To' number +1555 is not a valid phone number.", false, 400, 21211])
    const notOurs = await carrierError(newCall({ from: '+14155550177' }))
    assert.deepEqual([notOurs.retryable, notOurs.carrierCode], [false, 21210])

    tw.failNext(429)
    const limited = await carrierError(newCall())
    assert.deepEqual([limited.message, limited.retryable, limited.status, limited.carrierCode], ['Twilio 20429: Too Many Requests', true, 429, 20429])
    tw.failNext(503)
    assert.deepEqual(await carrierError(newCall()).then((e) => [e.retryable, e.status, e.carrierCode]), [true, 503, 20503])
    tw.failNext(502, 'Bad Gateway')
    const html = await carrierError(newCall())
    assert.deepEqual([html.message, html.retryable, html.status, html.carrierCode], ['Twilio answered HTTP 502.', true, 502, null])

    tw.failNext('hang')
    const slow = await carrierError(adapter({}, { timeoutMs: 300 }).searchNumber('US', '415'))
    assert.deepEqual([slow.message, slow.retryable, slow.status], ['Twilio did not answer within 300 ms.', true, null])

    const gone = await startTwilioServer()
    const goneUrl = gone.url
    await gone.close()
    const refused = await carrierError(adapter({ base_url: goneUrl }).searchNumber('US', '415'))
    assert.deepEqual([refused.retryable, refused.status], [true, null])
    assert.match(refused.message, /^Twilio could not be reached \(ECONNREFUSED\)/)

    assert.equal((await newCall()).status, 'queued', 'the next request goes through')

    const sent = tw.requests.length
    const long = await carrierError(newCall({ twiml: response(say('x'.repeat(4000))) }))
    assert.deepEqual([long.retryable, long.carrierCode, tw.requests.length], [false, 32018, sent], 'too long for Twilio: refused before sending')
  })

  it("401 for wrong credentials: permanent, with Twilio's code and detail", async () => {
    const bad = await carrierError(adapter({ auth_token: 'not-the-token' }).searchNumber('US', '415'))
    assert.deepEqual([bad.message, bad.retryable, bad.status, bad.carrierCode], ['Twilio 20003: Authenticate: Your AccountSid or AuthToken was incorrect.', false, 401, 20003])
    const other = await carrierError(adapter({ account_sid: 'AC99999999999999999999999999999999' }).searchNumber('US', '415'))
    assert.deepEqual([other.status, other.carrierCode], [401, 20003])
  })

  it('fetches a recording announced by a signed callback, with Basic auth, only from the Twilio origin', async () => {
    tw.seedNumber(FROM)
    const call = await newCall()
    const wav = Buffer.concat([Buffer.from('RIFF\x24\x00\x00\x00WAVEfmt ', 'latin1'), Buffer.alloc(64, 7)])
    const ready = await tw.recordingReady(call.sid, wav, 12)
    assert.equal(ready.status, 200)
    const cb = hooks.seen.at(-1)!
    assert.equal(cb.valid, true)
    assert.equal(cb.path, '/recording?call=vc_1')
    assert.equal(cb.form.get('RecordingUrl'), ready.recordingUrl)
    assert.deepEqual(
      ['CallSid', 'RecordingSid', 'RecordingStatus', 'RecordingDuration', 'RecordingChannels'].map((k) => cb.form.get(k)),
      [call.sid, ready.recordingSid, 'completed', '12', '2'],
    )
    assert.doesNotMatch(ready.recordingUrl, /\.wav$/)

    assert.deepEqual(await adapter().fetchRecording(cb.form.get('RecordingUrl')!), wav)
    const get = tw.requests.at(-1)!
    assert.equal(get.path, `/2010-04-01/Accounts/${tw.accountSid}/Recordings/${ready.recordingSid}.wav`)
    assert.equal(get.headers.authorization, `Basic ${Buffer.from(`${tw.accountSid}:${tw.authToken}`).toString('base64')}`)

    const before = tw.requests.length
    for (const foreign of [`https://evil.example.com/2010-04-01/Accounts/${tw.accountSid}/Recordings/${ready.recordingSid}`, `${hooks.base}/Recordings/${ready.recordingSid}`]) {
      const e = await carrierError(adapter().fetchRecording(foreign))
      assert.equal(e.retryable, false)
      assert.match(e.message, /Twilio credentials are not sent to/)
    }
    assert.equal(tw.requests.length, before, 'nothing was sent for a foreign URL')
    assert.equal(hooks.seen.length, 1)

    const big = await carrierError(adapter({}, { maxRecordingBytes: 32 }).fetchRecording(ready.recordingUrl))
    assert.deepEqual([big.retryable, big.status], [false, 200])
    const missing = await carrierError(adapter().fetchRecording(`${tw.url}/2010-04-01/Accounts/${tw.accountSid}/Recordings/RE00000000000000000000000000000000`))
    assert.deepEqual([missing.status, missing.carrierCode], [404, 20404])
  })

  it('follows the media redirect to another origin without sending the credentials there', async () => {
    const media = await startTwilioServer({ mediaRedirect: true })
    try {
      media.seedNumber(FROM)
      const call = await adapter({ base_url: media.url, account_sid: media.accountSid, auth_token: media.authToken }).createCall({
        to: '+14155550199',
        from: FROM,
        twiml: response(say('hi')),
        statusCallback: `${hooks.base}/status`,
        record: true,
        recordingStatusCallback: `${hooks.base}/recording`,
      })
      const wav = Buffer.from('RIFF....WAVEdata', 'latin1')
      const ready = await media.recordingReady(call.sid, wav, 3)
      assert.deepEqual(await adapter({ base_url: media.url }).fetchRecording(ready.recordingUrl), wav)
      const [api, storage] = media.requests.slice(-2)
      assert.equal(api.host, 'api')
      assert.ok(api.headers.authorization)
      assert.equal(storage.host, 'media')
      assert.equal(storage.headers.authorization, undefined)
    } finally {
      await media.close()
    }
  })

  it('refuses private addresses when the outbound policy does not allow them, and plain http for credentials', async () => {
    const plain = await carrierError(adapter({}, undefined, false).searchNumber('US', '415'))
    assert.deepEqual([plain.message, plain.retryable], ['The Twilio URL must use https.', false])
    const port = new URL(tw.url).port
    const privateHost = await carrierError(adapter({ base_url: `https://127.0.0.1:${port}` }, undefined, false).searchNumber('US', '415'))
    assert.equal(privateHost.retryable, false)
    assert.match(privateHost.message, /private networks are not allowed/)
    const metadata = await carrierError(adapter({ base_url: 'http://169.254.169.254' }).createCall({ to: '+1', from: '+1', twiml: '', statusCallback: '', record: false }))
    assert.match(metadata.message, /never an allowed destination/)
    assert.equal(tw.requests.length, 0, 'nothing reached the server')
  })
})

describe("voice twilio: the test server plays Twilio's side of a call", () => {
  let tw: TwilioServer
  let hooks: Awaited<ReturnType<typeof startReceiver>>
  before(async () => {
    tw = await startTwilioServer()
    hooks = await startReceiver(tw.authToken, (path, form) =>
      path === '/voice'
        ? response(say('Hi'), gather({ action: '/gather?step=1&x=a', language: 'en-US' }, say('How can we help?')))
        : form.has('SpeechResult')
          ? response(say(`You said ${form.get('SpeechResult')}`), gather({ action: `${hooks.base}/gather?step=2`, actionOnEmptyResult: true }))
          : response(say('Bye'), hangup()),
    )
  })
  after(async () => {
    await tw.close()
    await hooks.close()
  })

  it('inbound: the VoiceUrl is asked (signed), our <Gather> gets the speech, status callbacks follow the subscription', async () => {
    const n = tw.seedNumber('+14155550100', { voiceUrl: `${hooks.base}/voice`, statusCallback: `${hooks.base}/status` })
    const answer = await tw.inbound({ to: n.phone_number, from: '+14155550199' })
    assert.equal(answer.status, 200)
    assert.match(answer.body, /<Gather/)
    const voice = hooks.seen[0]
    assert.equal(voice.valid, true)
    assert.deepEqual(
      ['CallSid', 'From', 'To', 'CallStatus', 'Direction'].map((k) => voice.form.get(k)),
      [answer.callSid, '+14155550199', '+14155550100', 'ringing', 'inbound'],
    )

    await assert.rejects(tw.gather(answer.callSid, ''), /posts nothing/, 'silence reaches only an actionOnEmptyResult <Gather>')
    const said = await tw.gather(answer.callSid, 'I want a demo', 0.87)
    assert.equal(said.status, 200)
    assert.equal(hooks.seen[1].path, '/gather?step=1&x=a', 'a relative action resolves against the URL that answered')
    assert.deepEqual([hooks.seen[1].form.get('SpeechResult'), hooks.seen[1].form.get('Confidence'), hooks.seen[1].valid], ['I want a demo', '0.87', true])
    await tw.gather(answer.callSid, 'Tomorrow')
    assert.equal(hooks.seen[2].path, '/gather?step=2', 'the next <Gather> is the one our last answer returned')
    await tw.gather(answer.callSid, '')
    assert.deepEqual([hooks.seen[3].path, hooks.seen[3].form.has('SpeechResult'), hooks.seen[3].valid], ['/gather?step=2', false, true])
    await assert.rejects(tw.gather(answer.callSid, 'hello?'), /runs no <Gather>/, 'our goodbye listens no more')

    assert.equal(await tw.advance(answer.callSid, 'ringing'), null, 'an inbound number reports only completed')
    assert.equal(await tw.advance(answer.callSid, 'completed', { duration: 42 }), 200)
    const done = hooks.seen.at(-1)!
    assert.deepEqual(
      ['CallStatus', 'CallDuration', 'CallbackSource', 'SequenceNumber'].map((k) => done.form.get(k)),
      ['completed', '42', 'call-progress-events', '0'],
    )
    assert.equal(await tw.advance(answer.callSid, 'completed', { badSignature: true }), 403)
    assert.equal(hooks.seen.at(-1)!.valid, false)
  })
})
