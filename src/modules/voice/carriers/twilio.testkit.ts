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
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { XMLParser, XMLValidator } from 'fast-xml-parser'
import twilio from 'twilio'
import { request } from 'undici'

export const TEST_ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef'
export const TEST_AUTH_TOKEN = 'feedfacecafebeef0123456789abcdef'
const API_VERSION = '2010-04-01'
const TERMINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled'])
const E164 = /^\+[1-9]\d{6,14}$/

export interface TwilioRequestSeen {
  /** `api`, or `media` for the storage server recordings redirect to. */
  host: 'api' | 'media'
  method: string
  /** Path and query string as received. */
  path: string
  headers: IncomingHttpHeaders
  body: string
  /** The body as a form (empty for a GET). */
  form: URLSearchParams
}

export interface TwilioWebhookSent {
  kind: 'status' | 'voice' | 'gather' | 'recording'
  url: string
  params: Record<string, string>
  signature: string
  /** Our answer; 0 when the request failed (connection refused). */
  status: number
  body: string
}

export interface TwilioNumber {
  sid: string
  phone_number: string
  friendly_name: string
  voice_url: string | null
  voice_method: string
  status_callback: string | null
  status_callback_method: string
  date_created: Date
}

export interface TwilioCall {
  sid: string
  direction: 'outbound-api' | 'inbound'
  to: string
  from: string
  /** Twilio's spelling: queued, ringing, in-progress, completed, busy, no-answer, failed, canceled. */
  status: string
  /** The TwiML the call runs now (from Twiml=, an update, or our last webhook answer). */
  twiml: string | null
  /** The URL that answered `twiml` (a relative <Gather action> resolves against it); null for Twiml=. */
  twimlUrl: string | null
  statusCallback: string | null
  statusCallbackEvents: Set<string>
  record: boolean
  recordingChannels: string
  recordingStatusCallback: string | null
  /** Status callbacks sent so far (SequenceNumber of the next). */
  sequence: number
  answeredAt: number | null
  dateCreated: Date
  dateUpdated: Date
}

export interface TwilioRecording {
  sid: string
  callSid: string
  wav: Buffer
  durationSec: number
}

export interface TwilioServerOptions {
  accountSid?: string
  authToken?: string
  /** Recording media answered with a 302 to another origin, as api.twilio.com does. */
  mediaRedirect?: boolean
}

export interface CallbackOptions {
  /** Sign with another token: our endpoint must answer 403. */
  badSignature?: boolean
  /** More (or overriding) form parameters. */
  params?: Record<string, string>
}

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`
/** RFC 2822 in GMT, as Twilio writes dates. */
const rfc2822 = (d: Date) => d.toUTCString().replace(/ GMT$/, ' +0000')
const moreInfo = (code: number) => `https://www.twilio.com/docs/errors/${code}`

function twilioError(status: number, code: number, message: string, extra: Record<string, unknown> = {}) {
  return { status, body: { code, message, more_info: moreInfo(code), status, ...extra } }
}

function defaultFailure(status: number) {
  if (status === 401) return twilioError(401, 20003, 'Authenticate', { detail: 'Your AccountSid or AuthToken was incorrect.' }).body
  if (status === 403) return twilioError(403, 20403, 'Forbidden').body
  if (status === 404) return twilioError(404, 20404, 'The requested resource was not found').body
  if (status === 429) return twilioError(429, 20429, 'Too Many Requests').body
  if (status === 503) return twilioError(503, 20503, 'Service unavailable').body
  if (status >= 500) return twilioError(status, 20500, 'An internal server error has occurred').body
  return twilioError(status, 20001, 'Invalid request').body
}

/** (415) 555-0100 for NANP numbers, the number itself otherwise. */
function formatted(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164)
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164
}

const isUrl = (s: string | null) => {
  if (!s) return false
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol)
  } catch {
    return false
  }
}

/** Every <Gather> of a TwiML document, in document order within each parent. */
function gathersOf(twiml: string): Array<Record<string, unknown>> {
  const doc = new XMLParser({ ignoreAttributes: false, attributeNamePrefix: '', processEntities: true }).parse(twiml) as Record<string, unknown>
  const out: Array<Record<string, unknown>> = []
  const walk = (node: unknown) => {
    if (!node || typeof node !== 'object') return
    for (const [name, value] of Object.entries(node as Record<string, unknown>)) {
      const list = Array.isArray(value) ? value : [value]
      for (const v of list) {
        if (name === 'Gather') out.push(v && typeof v === 'object' ? (v as Record<string, unknown>) : {})
        walk(v)
      }
    }
  }
  walk(doc)
  return out
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

export async function startTwilioServer(opts: TwilioServerOptions = {}) {
  const accountSid = opts.accountSid ?? TEST_ACCOUNT_SID
  const authToken = opts.authToken ?? TEST_AUTH_TOKEN
  const numbers = new Map<string, TwilioNumber>()
  const calls = new Map<string, TwilioCall>()
  const recordings = new Map<string, TwilioRecording>()
  const requests: TwilioRequestSeen[] = []
  const webhooks: TwilioWebhookSent[] = []
  const scripted: Array<{ status: number | 'hang' | 'hold'; body?: unknown; left: number }> = []
  const mediaTokens = new Map<string, string>()
  let url = ''
  let mediaUrl = ''

  const base = () => `/${API_VERSION}/Accounts/${accountSid}`
  const ownerOf = (phone: string) => [...numbers.values()].find((n) => n.phone_number === phone) ?? null

  function putNumber(
    phone: string,
    form: { friendlyName?: string | null; voiceUrl?: string | null; voiceMethod?: string | null; statusCallback?: string | null; statusCallbackMethod?: string | null },
  ): TwilioNumber {
    const n: TwilioNumber = {
      sid: sid('PN'),
      phone_number: phone,
      friendly_name: form.friendlyName || formatted(phone),
      voice_url: form.voiceUrl || null,
      voice_method: form.voiceMethod || 'POST',
      status_callback: form.statusCallback || null,
      status_callback_method: form.statusCallbackMethod || 'POST',
      date_created: new Date(),
    }
    numbers.set(n.sid, n)
    return n
  }

  const numberJson = (n: TwilioNumber) => ({
    account_sid: accountSid,
    address_requirements: 'none',
    address_sid: null,
    api_version: API_VERSION,
    beta: false,
    bundle_sid: null,
    capabilities: { voice: true, sms: true, mms: true, fax: false },
    date_created: rfc2822(n.date_created),
    date_updated: rfc2822(n.date_created),
    emergency_status: 'Inactive',
    emergency_address_sid: null,
    friendly_name: n.friendly_name,
    identity_sid: null,
    origin: 'twilio',
    phone_number: n.phone_number,
    sid: n.sid,
    sms_application_sid: '',
    sms_fallback_method: 'POST',
    sms_fallback_url: '',
    sms_method: 'POST',
    sms_url: '',
    status: 'in-use',
    status_callback: n.status_callback ?? '',
    status_callback_method: n.status_callback_method,
    trunk_sid: null,
    uri: `${base()}/IncomingPhoneNumbers/${n.sid}.json`,
    voice_application_sid: null,
    voice_caller_id_lookup: false,
    voice_fallback_method: 'POST',
    voice_fallback_url: null,
    voice_method: n.voice_method,
    voice_receive_mode: 'voice',
    voice_url: n.voice_url,
  })

  const callJson = (c: TwilioCall) => ({
    account_sid: accountSid,
    annotation: null,
    answered_by: null,
    api_version: API_VERSION,
    caller_name: null,
    date_created: rfc2822(c.dateCreated),
    date_updated: rfc2822(c.dateUpdated),
    direction: c.direction,
    duration: TERMINAL.has(c.status) ? String(durationOf(c)) : null,
    end_time: TERMINAL.has(c.status) ? rfc2822(c.dateUpdated) : null,
    forwarded_from: null,
    from: c.from,
    from_formatted: formatted(c.from),
    group_sid: null,
    parent_call_sid: null,
    phone_number_sid: ownerOf(c.direction === 'inbound' ? c.to : c.from)?.sid ?? null,
    price: null,
    price_unit: 'USD',
    queue_time: '0',
    sid: c.sid,
    start_time: c.answeredAt ? rfc2822(new Date(c.answeredAt)) : null,
    status: c.status,
    subresource_uris: {
      notifications: `${base()}/Calls/${c.sid}/Notifications.json`,
      recordings: `${base()}/Calls/${c.sid}/Recordings.json`,
      payments: `${base()}/Calls/${c.sid}/Payments.json`,
      events: `${base()}/Calls/${c.sid}/Events.json`,
      siprec: `${base()}/Calls/${c.sid}/Siprec.json`,
      streams: `${base()}/Calls/${c.sid}/Streams.json`,
      user_defined_message_subscriptions: `${base()}/Calls/${c.sid}/UserDefinedMessageSubscriptions.json`,
      user_defined_messages: `${base()}/Calls/${c.sid}/UserDefinedMessages.json`,
    },
    to: c.to,
    to_formatted: formatted(c.to),
    trunk_sid: null,
    uri: `${base()}/Calls/${c.sid}.json`,
  })

  function durationOf(c: TwilioCall): number {
    return c.answeredAt ? Math.max(0, Math.round((c.dateUpdated.getTime() - c.answeredAt) / 1000)) : 0
  }

  function available(country: string, query: URLSearchParams): { status: number; body: unknown } {
    const pageSize = Math.min(Math.max(Number(query.get('PageSize') ?? 50) || 50, 1), 1000)
    const areaCode = query.get('AreaCode')
    const candidates: string[] = []
    if (country === 'US' || country === 'CA') {
      const area = areaCode ?? (country === 'US' ? '415' : '604')
      // NANP area codes never start with 0 or 1.
      if (/^[2-9]\d\d$/.test(area)) for (let i = 0; i < 100; i++) candidates.push(`+1${area}55501${String(i).padStart(2, '0')}`)
    } else if (country === 'GB') {
      if (!areaCode || areaCode === '20') for (let i = 0; i < 1000; i++) candidates.push(`+442079460${String(i).padStart(3, '0')}`)
    } else {
      return twilioError(404, 20404, `The requested resource ${base()}/AvailablePhoneNumbers/${country}/Local.json was not found`)
    }
    const free = candidates.filter((p) => !ownerOf(p)).slice(0, pageSize)
    return {
      status: 200,
      body: {
        available_phone_numbers: free.map((p) => ({
          friendly_name: formatted(p),
          phone_number: p,
          lata: null,
          locality: null,
          rate_center: null,
          latitude: null,
          longitude: null,
          region: null,
          postal_code: null,
          iso_country: country,
          address_requirements: 'none',
          beta: false,
          // The live API spells these two in capitals here (and in lower case on owned numbers).
          capabilities: { voice: true, SMS: true, MMS: true, fax: false },
        })),
        end: free.length === 0 ? 0 : free.length - 1,
        first_page_uri: `${base()}/AvailablePhoneNumbers/${country}/Local.json?PageSize=${pageSize}&Page=0`,
        next_page_uri: null,
        page: 0,
        page_size: pageSize,
        previous_page_uri: null,
        start: 0,
        uri: `${base()}/AvailablePhoneNumbers/${country}/Local.json?${query}`,
      },
    }
  }

  function buy(form: URLSearchParams): { status: number; body: unknown } {
    const phone = form.get('PhoneNumber') ?? ''
    if (!E164.test(phone)) return twilioError(400, 21421, `PhoneNumber is invalid`)
    if (ownerOf(phone)) return twilioError(400, 21422, `PhoneNumber ${phone} is not available`)
    for (const key of ['VoiceUrl', 'StatusCallback']) {
      const v = form.get(key)
      if (v !== null && v !== '' && !isUrl(v)) return twilioError(400, 21502, `${key} is not a valid URL: ${v}`)
    }
    if ((form.get('FriendlyName') ?? '').length > 64) return twilioError(400, 21401, 'FriendlyName is too long')
    const n = putNumber(phone, {
      friendlyName: form.get('FriendlyName'),
      voiceUrl: form.get('VoiceUrl'),
      voiceMethod: form.get('VoiceMethod'),
      statusCallback: form.get('StatusCallback'),
      statusCallbackMethod: form.get('StatusCallbackMethod'),
    })
    return { status: 201, body: numberJson(n) }
  }

  function updateNumber(n: TwilioNumber, form: URLSearchParams): { status: number; body: unknown } {
    for (const key of ['VoiceUrl', 'StatusCallback']) {
      const v = form.get(key)
      if (v !== null && v !== '' && !isUrl(v)) return twilioError(400, 21502, `${key} is not a valid URL: ${v}`)
    }
    const friendly = form.get('FriendlyName')
    if (friendly !== null && friendly.length > 64) return twilioError(400, 21401, 'FriendlyName is too long')
    if (friendly !== null) n.friendly_name = friendly || formatted(n.phone_number)
    if (form.has('VoiceUrl')) n.voice_url = form.get('VoiceUrl') || null
    if (form.has('StatusCallback')) n.status_callback = form.get('StatusCallback') || null
    return { status: 200, body: numberJson(n) }
  }

  function createCall(form: URLSearchParams): { status: number; body: unknown } {
    const to = form.get('To')
    const from = form.get('From')
    if (!to) return twilioError(400, 21201, "No 'To' number is specified")
    if (!E164.test(to) && !/^(client|sip):/.test(to)) return twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`)
    if (!from) return twilioError(400, 21213, "No 'From' number is specified")
    if (!ownerOf(from)) {
      return twilioError(
        400,
        21210,
        `The source phone number provided, ${from}, is not yet verified for your account. You may only make calls from phone numbers that you've verified or purchased from Twilio.`,
      )
    }
    const twiml = form.get('Twiml')
    if (!twiml && !form.get('Url')) return twilioError(400, 21205, 'Url or Twiml is required')
    if (twiml && twiml.length > 4000) return twilioError(400, 32018, 'Twiml size exceeded maximum allowed value of 4000 characters')
    if (twiml && XMLValidator.validate(twiml) !== true) return twilioError(400, 12100, 'Document parse failure')
    for (const key of ['StatusCallback', 'RecordingStatusCallback']) {
      const v = form.get(key)
      if (v !== null && v !== '' && !isUrl(v)) return twilioError(400, 21609, `Invalid ${key} url: ${v}`)
    }
    const events = new Set(
      form
        .getAll('StatusCallbackEvent')
        .flatMap((e) => e.split(/\s+/))
        .filter(Boolean),
    )
    const now = new Date()
    const c: TwilioCall = {
      sid: sid('CA'),
      direction: 'outbound-api',
      to,
      from,
      status: 'queued',
      twiml,
      twimlUrl: null,
      statusCallback: form.get('StatusCallback') || null,
      statusCallbackEvents: events.size > 0 ? events : new Set(['completed']),
      record: form.get('Record') === 'true',
      recordingChannels: form.get('RecordingChannels') ?? 'mono',
      recordingStatusCallback: form.get('RecordingStatusCallback') || null,
      sequence: 0,
      answeredAt: null,
      dateCreated: now,
      dateUpdated: now,
    }
    calls.set(c.sid, c)
    return { status: 201, body: callJson(c) }
  }

  function updateCall(c: TwilioCall, form: URLSearchParams): { status: number; body: unknown } {
    const twiml = form.get('Twiml')
    const status = form.get('Status')
    if (twiml !== null) {
      if (TERMINAL.has(c.status)) return twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.')
      if (twiml.length > 4000) return twilioError(400, 32018, 'Twiml size exceeded maximum allowed value of 4000 characters')
      if (XMLValidator.validate(twiml) !== true) return twilioError(400, 12100, 'Document parse failure')
      c.twiml = twiml
      c.twimlUrl = null
    } else if (status === 'completed' || status === 'canceled') {
      if (TERMINAL.has(c.status)) return twilioError(400, 21220, 'Call is not in-progress. Cannot redirect.')
      // Canceling reaches only calls not yet answered; Twilio ignores it for one in progress. Completing ends
      // any call, and one hung up while queued or ringing ends `canceled` (Twilio's meaning of that status).
      if (c.status === 'queued' || c.status === 'ringing') c.status = 'canceled'
      else if (status === 'completed') c.status = 'completed'
    } else {
      return twilioError(400, 20001, `Invalid Status: ${status ?? '(none)'}`)
    }
    c.dateUpdated = new Date()
    return { status: 200, body: callJson(c) }
  }

  function route(method: string, path: string, query: URLSearchParams, form: URLSearchParams): { status: number; body: unknown; wav?: Buffer; location?: string } {
    const rest = path.slice(base().length)
    let m: RegExpExecArray | null
    if (method === 'GET' && (m = /^\/AvailablePhoneNumbers\/([^/]+)\/Local\.json$/.exec(rest))) return available(decodeURIComponent(m[1]), query)
    if (method === 'POST' && rest === '/IncomingPhoneNumbers.json') return buy(form)
    if (method === 'POST' && rest === '/Calls.json') return createCall(form)
    if ((m = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest)) && numbers.has(m[1])) {
      const n = numbers.get(m[1])!
      if (method === 'GET') return { status: 200, body: numberJson(n) }
      if (method === 'DELETE') {
        numbers.delete(n.sid)
        return { status: 204, body: null }
      }
      if (method === 'POST') return updateNumber(n, form)
    }
    if ((m = /^\/Calls\/([^/]+)\.json$/.exec(rest))) {
      const c = calls.get(decodeURIComponent(m[1]))
      if (c && method === 'GET') return { status: 200, body: callJson(c) }
      if (c && method === 'POST') return updateCall(c, form)
    }
    if (method === 'GET' && (m = /^\/Recordings\/(RE[0-9a-f]{32})(\.wav)?$/.exec(rest))) {
      const r = recordings.get(m[1])
      if (r && opts.mediaRedirect) {
        const token = randomBytes(12).toString('hex')
        mediaTokens.set(token, r.sid)
        return { status: 302, body: null, location: `${mediaUrl}/media/${r.sid}.wav?Expires=${Math.floor(Date.now() / 1000) + 600}&Signature=${token}` }
      }
      if (r) return { status: 200, body: null, wav: r.wav }
    }
    return twilioError(404, 20404, `The requested resource ${path} was not found`)
  }

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
        if (s.status === 'hold') return void route(method, target.pathname, target.searchParams, form)
        return sendJson(res, s.status, s.body ?? defaultFailure(s.status))
      }
      if (req.headers.authorization !== `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`) return sendJson(res, 401, defaultFailure(401))
      if (!target.pathname.startsWith(`${base()}/`)) return sendJson(res, 401, defaultFailure(401))
      const out = route(method, target.pathname, target.searchParams, form)
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

  /** POSTs a signed form, as Twilio's webhooks are sent. */
  async function post(kind: TwilioWebhookSent['kind'], target: string, params: Record<string, string>, cb: CallbackOptions = {}) {
    const all = { ...params, ...cb.params }
    const signature = twilio.getExpectedTwilioSignature(cb.badSignature ? `${authToken}-wrong` : authToken, target, all)
    const sent: TwilioWebhookSent = { kind, url: target, params: all, signature, status: 0, body: '' }
    webhooks.push(sent)
    const res = await request(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
        'i-twilio-idempotency-token': randomBytes(16).toString('hex'),
        'user-agent': 'TwilioProxy/1.1',
        accept: '*/*',
      },
      body: new URLSearchParams(all).toString(),
    })
    sent.status = res.statusCode
    sent.body = await res.body.text()
    return { status: sent.status, body: sent.body }
  }

  const callParams = (c: TwilioCall): Record<string, string> => ({
    AccountSid: accountSid,
    ApiVersion: API_VERSION,
    CallSid: c.sid,
    CallStatus: c.status,
    Called: c.to,
    Caller: c.from,
    Direction: c.direction,
    From: c.from,
    To: c.to,
  })

  function callOf(callSid: string): TwilioCall {
    const c = calls.get(callSid)
    if (!c) throw new Error(`twilio test server: no call ${callSid}`)
    return c
  }

  const EVENT_OF: Record<string, string> = { initiated: 'initiated', ringing: 'ringing', 'in-progress': 'answered' }

  /** Runs the TwiML answer of a webhook: it becomes what the call executes next. */
  function adopt(c: TwilioCall, from: string, answer: { status: number; body: string }) {
    if (answer.status >= 200 && answer.status < 300 && answer.body.trim().startsWith('<')) {
      c.twiml = answer.body
      c.twimlUrl = from
    }
  }

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
      return putNumber(phone, o)
    },

    /**
     * Moves a call to `status` (Twilio's spelling) and POSTs its status callback, when the call asked
     * for that event; answers our HTTP status, or null when Twilio would not have called (no
     * StatusCallback, event not subscribed). `duration` sets CallDuration on an ended call.
     */
    async advance(callSid: string, status: string, extra: CallbackOptions & { duration?: number } = {}): Promise<number | null> {
      const c = callOf(callSid)
      const now = new Date()
      if (status === 'in-progress' && !c.answeredAt) c.answeredAt = now.getTime()
      c.status = status
      c.dateUpdated = now
      const terminal = TERMINAL.has(status)
      const event = terminal ? 'completed' : EVENT_OF[status]
      if (!c.statusCallback || (event && !c.statusCallbackEvents.has(event))) return null
      const duration = extra.duration ?? durationOf(c)
      const params: Record<string, string> = {
        ...callParams(c),
        CallbackSource: 'call-progress-events',
        SequenceNumber: String(c.sequence++),
        Timestamp: rfc2822(now),
        ...(terminal ? { CallDuration: String(duration), Duration: String(Math.ceil(duration / 60)), SipResponseCode: status === 'completed' ? '200' : '487' } : {}),
      }
      return (await post('status', c.statusCallback, params, extra)).status
    },

    /**
     * A recording of the call is ready: served at `<url>/2010-04-01/Accounts/{sid}/Recordings/{RE…}.wav`
     * and announced to the call's RecordingStatusCallback (RecordingUrl without an extension).
     */
    async recordingReady(callSid: string, wav: Buffer, durationSec: number, cb: CallbackOptions = {}) {
      const c = callOf(callSid)
      const r: TwilioRecording = { sid: sid('RE'), callSid, wav, durationSec }
      recordings.set(r.sid, r)
      const recordingUrl = `${url}${base()}/Recordings/${r.sid}`
      if (!c.recordingStatusCallback) return { status: null, recordingSid: r.sid, recordingUrl }
      const params = {
        AccountSid: accountSid,
        CallSid: callSid,
        RecordingSid: r.sid,
        RecordingUrl: recordingUrl,
        RecordingStatus: 'completed',
        RecordingDuration: String(durationSec),
        RecordingChannels: c.recordingChannels === 'dual' ? '2' : '1',
        RecordingStartTime: rfc2822(c.answeredAt ? new Date(c.answeredAt) : c.dateCreated),
        RecordingSource: 'OutboundAPI',
        RecordingTrack: 'both',
        ErrorCode: '0',
      }
      const sent = await post('recording', c.recordingStatusCallback, params, cb)
      return { status: sent.status, recordingSid: r.sid, recordingUrl }
    },

    /** A call to one of the account's numbers: its VoiceUrl is asked what to do; our TwiML comes back. */
    async inbound(call: { to: string; from: string }, cb: CallbackOptions = {}) {
      const n = ownerOf(call.to)
      if (!n?.voice_url) throw new Error(`twilio test server: ${call.to} is not a number of the account with a VoiceUrl`)
      const now = new Date()
      const c: TwilioCall = {
        sid: sid('CA'),
        direction: 'inbound',
        to: call.to,
        from: call.from,
        status: 'ringing',
        twiml: null,
        twimlUrl: null,
        statusCallback: n.status_callback,
        statusCallbackEvents: new Set(['completed']),
        record: false,
        recordingChannels: 'mono',
        recordingStatusCallback: null,
        sequence: 0,
        answeredAt: null,
        dateCreated: now,
        dateUpdated: now,
      }
      calls.set(c.sid, c)
      const answer = await post('voice', n.voice_url, callParams(c), cb)
      adopt(c, n.voice_url, answer)
      if (c.twiml) {
        c.status = 'in-progress'
        c.answeredAt = Date.now()
      } else {
        c.status = 'failed'
      }
      return { ...answer, callSid: c.sid }
    },

    /**
     * The caller said `speechResult`: POSTed to the action of the last <Gather> the call runs. '' is
     * silence: POSTed without SpeechResult only where the <Gather> has actionOnEmptyResult="true" (else
     * Twilio goes on with the next verb and calls nobody: this throws).
     */
    async gather(callSid: string, speechResult: string, confidence = 0.92, cb: CallbackOptions = {}) {
      const c = callOf(callSid)
      const g = c.twiml ? gathersOf(c.twiml).at(-1) : undefined
      if (!g) throw new Error(`twilio test server: call ${callSid} runs no <Gather>`)
      const action = typeof g.action === 'string' && g.action !== '' ? g.action : c.twimlUrl
      if (!action) throw new Error(`twilio test server: the <Gather> of ${callSid} has no action`)
      const silent = speechResult === ''
      if (silent && String(g.actionOnEmptyResult) !== 'true') throw new Error(`twilio test server: silence on a <Gather> without actionOnEmptyResult posts nothing`)
      const target = new URL(action, c.twimlUrl ?? undefined).href
      const heard: Record<string, string> = silent ? {} : { SpeechResult: speechResult, Confidence: String(confidence) }
      const answer = await post('gather', target, { ...callParams(c), CallStatus: 'in-progress', ...heard }, cb)
      adopt(c, target, answer)
      return answer
    },

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
