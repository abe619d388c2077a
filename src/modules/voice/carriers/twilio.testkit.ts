// Test support (not a test file itself): a Twilio-compatible server on 127.0.0.1 speaking the REST API
// 2010-04-01 as the adapter uses it, and playing Twilio's side of a call: status callbacks, voice
// webhooks, <Gather> results and recording callbacks, signed with the OFFICIAL twilio package, so our
// verifier is held to an independent implementation.
//
//   const tw = await startTwilioServer()                        // fixed test AccountSid / auth token
//   const creds = { account_sid: tw.accountSid, auth_token: tw.authToken, base_url: tw.url }
//   tw.requests                                                 // every request: method, path, headers, body, form
//   tw.failNext(503)                                            // the next request: 503 with Twilio's error JSON
//   tw.failNext(429, undefined, 2); tw.failNext('hang')         // the next 2: 429; then one never answered
//   tw.failNext('hold')                                         // the next one is done (a call created) but never answered
//   tw.beforeNext(() => tw.advance(sid, 'in-progress'))          // runs (awaited) before the next REST request is handled
//   tw.seedNumber('+14155550100', { voiceUrl, statusCallback }) // an IncomingPhoneNumber owned before the test
//   await tw.advance(callSid, 'ringing')                        // status callback → our HTTP status (null: not subscribed)
//   await tw.advance(callSid, 'completed', { duration: 42 })    // CallDuration 42; { badSignature: true } signs wrongly
//   await tw.recordingReady(callSid, wav, 42)                   // serves the WAV, POSTs the recording callback
//   await tw.inbound({ to: '+14155550100', from: '+14155550199' })  // → { status, body (our TwiML), callSid }
//   await tw.gather(callSid, 'I would like a demo', 0.91)       // → { status, body }: to the last <Gather>'s action
//   await tw.gather(callSid, '')                                // silence (needs actionOnEmptyResult="true")
//   tw.webhooks                                                 // every callback sent: url, params, status, body
//   await tw.close()
//
// REST, as Twilio answers (JSON shapes and error codes; sids PN / CA / RE + 32 hex):
//   GET  /2010-04-01/Accounts/{Sid}/AvailablePhoneNumbers/{US|CA|GB}/Local.json  AreaCode, PageSize:
//        fictional numbers (+1 <area> 555 01xx, +44 20 7946 0xxx) not owned yet; an area code that NANP
//        does not allow (0xx, 1xx) finds nothing; other countries 404 20404.
//   POST .../IncomingPhoneNumbers.json   PhoneNumber (E.164, not owned: 21421 / 21422), FriendlyName,
//        VoiceUrl, VoiceMethod, StatusCallback, StatusCallbackMethod → 201
//   POST .../Calls.json   To (missing 21201, invalid 21211), From (missing 21213, not owned 21210), Twiml
//        (or Url; neither 21205; over 4000 characters 32018; not well-formed XML 12100), StatusCallback, StatusCallbackEvent (repeated or
//        space-separated; without it only `completed` is reported), Record, RecordingChannels,
//        RecordingStatusCallback → 201 status queued
//   GET / POST / DELETE .../IncomingPhoneNumbers/{PN}.json   the number; FriendlyName (over 64: 21401), VoiceUrl,
//        StatusCallback → 200; DELETE releases it → 204 (then 404 20404)
//   GET  .../Calls/{CA}.json; POST .../Calls/{CA}.json  Twiml (an ended call: 21220) or Status=completed|canceled
//        (canceled ends only a queued or ringing call; either ends one of those as canceled). No callback is sent by itself: tests call advance().
//   GET  .../Recordings/{RE}[.wav]   the WAV (audio/x-wav); with `mediaRedirect`, a 302 to a second
//        server (another origin, as Twilio's media storage is) that serves it without credentials.
//   Basic auth AccountSid:AuthToken on everything (401 20003), the path's account must be that one.
import { createServer, type ServerResponse } from 'node:http'
import { twilioCallPlayer } from './twilio-calls.testkit.js'
import { twilioRest } from './twilio-rest.testkit.js'
import {
  basePath,
  defaultFailure,
  listen,
  readBody,
  sid,
  TEST_ACCOUNT_SID,
  TEST_AUTH_TOKEN,
  type TwilioCall,
  type TwilioNumber,
  type TwilioRecording,
  type TwilioRequestSeen,
  type TwilioServerOptions,
  type TwilioState,
  type TwilioWebhookSent,
} from './twilio-wire.testkit.js'

// Assembled here from its parts (twilio-wire: records, errors, helpers; twilio-rest: the REST API;
// twilio-calls: Twilio's side of a call); importers name only this file.
export { TEST_ACCOUNT_SID, TEST_AUTH_TOKEN } from './twilio-wire.testkit.js'
export type { CallbackOptions, TwilioCall, TwilioNumber, TwilioRecording, TwilioRequestSeen, TwilioServerOptions, TwilioWebhookSent } from './twilio-wire.testkit.js'

export async function startTwilioServer(opts: TwilioServerOptions = {}) {
  const numbers = new Map<string, TwilioNumber>()
  const calls = new Map<string, TwilioCall>()
  const recordings = new Map<string, TwilioRecording>()
  const webhooks: TwilioWebhookSent[] = []
  const state: TwilioState = { accountSid: opts.accountSid ?? TEST_ACCOUNT_SID, authToken: opts.authToken ?? TEST_AUTH_TOKEN, numbers, calls, recordings, webhooks }
  const { accountSid, authToken } = state
  const requests: TwilioRequestSeen[] = []
  const scripted: Array<{ status: number | 'hang' | 'hold'; body?: unknown; left: number }> = []
  const mediaTokens = new Map<string, string>()
  let url = ''
  let mediaUrl = ''
  const rest = twilioRest(state, { redirect: opts.mediaRedirect === true, url: () => mediaUrl, tokens: mediaTokens })

  function sendJson(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'twilio-request-id': sid('RQ') })
    res.end(JSON.stringify(body))
  }

  const beforeHooks: (() => Promise<unknown>)[] = []
  const api = createServer((req, res) => {
    // A failure here answers 500, which the test sees, not an unhandled rejection that ends the test process.
    void (async () => {
      const body = await readBody(req)
      const method = req.method ?? ''
      const target = new URL(req.url ?? '/', url)
      const form = method === 'POST' ? new URLSearchParams(body) : new URLSearchParams()
      requests.push({ host: 'api', method, path: req.url ?? '', headers: req.headers, body, form })
      // Something that happens at Twilio while the request is on its way (a call answered meanwhile).
      await beforeHooks.shift()?.()
      const s = scripted[0]
      if (s) {
        if (--s.left <= 0) scripted.shift()
        if (s.status === 'hang') return
        // Done at Twilio, but the answer never leaves: the caller cannot know the call exists.
        if (s.status === 'hold') return void rest.route(method, target.pathname, target.searchParams, form)
        return sendJson(res, s.status, s.body ?? defaultFailure(s.status))
      }
      if (req.headers.authorization !== `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`) return sendJson(res, 401, defaultFailure(401))
      if (!target.pathname.startsWith(`${basePath(state)}/`)) return sendJson(res, 401, defaultFailure(401))
      const out = rest.route(method, target.pathname, target.searchParams, form)
      if (out.status === 204) {
        res.writeHead(204, { 'twilio-request-id': sid('RQ') }).end()
      } else if (out.location) {
        res.writeHead(302, { location: out.location, 'content-type': 'text/plain' }).end('Found')
      } else if (out.wav) {
        res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': String(out.wav.length) }).end(out.wav)
      } else {
        sendJson(res, out.status, out.body)
      }
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(err))
    })
  })

  const media = createServer((req, res) => {
    // A failure here answers 500, which the test sees, not an unhandled rejection that ends the test process.
    void (async () => {
      const body = await readBody(req)
      requests.push({ host: 'media', method: req.method ?? '', path: req.url ?? '', headers: req.headers, body, form: new URLSearchParams() })
      const target = new URL(req.url ?? '/', mediaUrl)
      const m = /^\/media\/(RE[0-9a-f]{32})\.wav$/.exec(target.pathname)
      const r = m && mediaTokens.get(target.searchParams.get('Signature') ?? '') === m[1] ? recordings.get(m[1]) : undefined
      // Storage signed by query string refuses a second credential, as S3 does.
      if (req.headers.authorization)
        return res.writeHead(400, { 'content-type': 'application/xml' }).end('<Error><Code>InvalidArgument</Code><Message>Only one auth mechanism allowed</Message></Error>')
      if (!r) return res.writeHead(403, { 'content-type': 'application/xml' }).end('<Error><Code>AccessDenied</Code></Error>')
      res.writeHead(200, { 'content-type': 'audio/x-wav', 'content-length': String(r.wav.length) }).end(r.wav)
    })().catch((err: unknown) => {
      if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
      res.end(String(err))
    })
  })

  url = await listen(api)
  mediaUrl = await listen(media)

  const player = twilioCallPlayer(state, url)

  return {
    url,
    /** The origin recordings redirect to when `mediaRedirect` is set. */
    mediaUrl,
    accountSid,
    authToken,
    /** By sid. Mutate freely in tests. */
    numbers,
    /** By sid. */
    calls,
    recordings,
    requests,
    webhooks,

    /** The next `times` REST requests get `status` with `body` (default: Twilio's error JSON for it); 'hang' never answers. */
    failNext(status: number | 'hang' | 'hold', body?: unknown, times = 1) {
      scripted.push({ status, body, left: times })
    },

    /** Runs `fn` (awaited) when the next REST request arrives, before it is handled. */
    beforeNext(fn: () => Promise<unknown>) {
      beforeHooks.push(fn)
    },

    /** An IncomingPhoneNumber the account owns already; returns it. */
    seedNumber(phone: string, o: { voiceUrl?: string; statusCallback?: string; friendlyName?: string } = {}) {
      return rest.putNumber(phone, o)
    },

    ...player,

    /** Forget numbers, calls, recordings, requests, webhooks and scripted failures. */
    reset() {
      for (const m of [numbers, calls, recordings, mediaTokens]) m.clear()
      requests.length = 0
      webhooks.length = 0
      scripted.length = 0
      beforeHooks.length = 0
    },

    close: () =>
      Promise.all(
        [api, media].map(
          (s) =>
            new Promise<void>((resolve) => {
              s.closeAllConnections()
              s.close(() => resolve())
            }),
        ),
      ).then(() => undefined),
  }
}

export type TwilioServer = Awaited<ReturnType<typeof startTwilioServer>>
