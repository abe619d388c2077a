import type { Kernel } from '../../../kernel/kernel.js'
import { CarrierError, type CarrierCall, type CarrierNumber, type TwilioCredentials } from './carrier.types.js'
import { checkTwilioUrl, isRedirect, parseJson, sendTwilioRequest, twilioErrorOf, type TwilioHttpResponse } from '../../../kernel/twilio/http.js'
import { twilioStatus } from './twilio.status.js'
import type { Twiml } from './twiml.js'

// Twilio's REST API 2010-04-01 as the voice module uses it: find and buy a number, place a call, change a
// running call (new TwiML, or hang up), fetch a recording. Stateless: credentials come with each adapter.
//
// Failures throw CarrierError: "Twilio <code>: <message>" from Twilio's error JSON, retryable for 429,
// 5xx, timeouts and network errors. A retried createCall after a timeout may place a second call (Twilio
// takes no idempotency key for Calls): the caller decides whether to retry that one.

export const TWILIO_DEFAULT_BASE_URL = 'https://api.twilio.com'
const API = '/2010-04-01'
export const DEFAULT_TIMEOUT_MS = 10_000
/** A REST answer (a call, a number, a page of one) is small; anything larger is not Twilio. */
const MAX_JSON_BYTES = 1024 * 1024
/** About 50 minutes of two-channel 8 kHz 16-bit WAV. */
export const DEFAULT_MAX_RECORDING_BYTES = 50 * 1024 * 1024
export const DEFAULT_RECORDING_TIMEOUT_MS = 120_000
/** Twilio's recording media answers with a redirect to its storage; more hops than this is a loop. */
const MAX_REDIRECTS = 3
/** The events a call reports to its StatusCallback (without them Twilio reports only `completed`). */
const CALL_EVENTS = ['initiated', 'ringing', 'answered', 'completed']
/** Twilio's limit on TwiML passed inline (error 32018); webhook answers may be longer. */
export const TWIML_MAX_CHARS = 4000

export type AvailableNumber = Omit<CarrierNumber, 'sid'>

export interface TwilioAdapterOptions {
  /** Per REST request; default 10 s. */
  timeoutMs?: number
  /** For a whole recording download, redirects included; default 120 s. */
  recordingTimeoutMs?: number
  maxRecordingBytes?: number
}

export interface BuyNumberRequest {
  friendlyName: string
  /** Where Twilio asks what to do with an inbound call (POST). */
  voiceUrl: string
  /** Where Twilio reports the status of inbound calls (POST). */
  statusCallback: string
}

export interface CreateCallRequest {
  /** E.164. */
  to: string
  /** E.164, a number of this account. */
  from: string
  twiml: Twiml | string
  statusCallback: string
  /** Record both parties, one channel each. */
  record: boolean
  recordingStatusCallback?: string | null
}

export type UpdateCallRequest = { twiml: Twiml | string } | { status: 'completed' | 'canceled' }

export class TwilioAdapter {
  private readonly baseUrl: string
  private readonly account: string
  private readonly authorization: string
  private readonly timeoutMs: number
  private readonly recordingTimeoutMs: number
  private readonly maxRecordingBytes: number

  constructor(
    private readonly k: Kernel,
    creds: TwilioCredentials,
    opts: TwilioAdapterOptions = {},
  ) {
    this.baseUrl = (creds.base_url?.trim() || TWILIO_DEFAULT_BASE_URL).replace(/\/+$/, '')
    this.account = `${this.baseUrl}${API}/Accounts/${encodeURIComponent(creds.account_sid)}`
    this.authorization = `Basic ${Buffer.from(`${creds.account_sid}:${creds.auth_token}`, 'utf8').toString('base64')}`
    this.timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
    this.recordingTimeoutMs = opts.recordingTimeoutMs ?? DEFAULT_RECORDING_TIMEOUT_MS
    this.maxRecordingBytes = opts.maxRecordingBytes ?? DEFAULT_MAX_RECORDING_BYTES
  }

  /** The first local number with voice in `country` (ISO 3166 alpha-2) and the area code, or null when none is free. */
  async searchNumber(country: string, areaCode: string | null): Promise<AvailableNumber | null> {
    const query = new URLSearchParams()
    if (areaCode) query.set('AreaCode', areaCode)
    query.set('VoiceEnabled', 'true')
    query.set('PageSize', '1')
    const path = `/AvailablePhoneNumbers/${encodeURIComponent(country.toUpperCase())}/Local.json?${query}`
    const page = await this.json('GET', path)
    const list = page.available_phone_numbers
    if (!Array.isArray(list)) throw new CarrierError('Twilio answered the number search without a list of numbers.', false)
    const first = list[0] as Record<string, unknown> | undefined
    if (!first) return null
    return { phone_number: stringOf(first.phone_number, 'phone_number'), friendly_name: String(first.friendly_name ?? first.phone_number), capabilities: capabilitiesOf(first.capabilities) }
  }

  async buyNumber(phoneNumber: string, req: BuyNumberRequest): Promise<CarrierNumber> {
    const form = new URLSearchParams({
      PhoneNumber: phoneNumber,
      FriendlyName: twilioFriendlyName(req.friendlyName),
      VoiceUrl: req.voiceUrl,
      VoiceMethod: 'POST',
      StatusCallback: req.statusCallback,
      StatusCallbackMethod: 'POST',
    })
    const n = await this.json('POST', '/IncomingPhoneNumbers.json', form)
    return {
      sid: stringOf(n.sid, 'sid'),
      phone_number: stringOf(n.phone_number, 'phone_number'),
      friendly_name: String(n.friendly_name ?? n.phone_number),
      capabilities: capabilitiesOf(n.capabilities),
    }
  }

  /** Renames an owned number at Twilio (its FriendlyName). */
  async renameNumber(sid: string, friendlyName: string): Promise<void> {
    await this.json('POST', `/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`, new URLSearchParams({ FriendlyName: twilioFriendlyName(friendlyName) }))
  }

  /**
   * Releases an owned number (Twilio answers 204). A number Twilio no longer has (404: released in its
   * console, or by an earlier attempt whose answer was lost) counts as released: a retry must not fail.
   */
  async releaseNumber(sid: string): Promise<'released' | 'already_gone'> {
    const res = await sendTwilioRequest(
      this.k,
      { method: 'DELETE', url: `${this.account}/IncomingPhoneNumbers/${encodeURIComponent(sid)}.json`, authorization: this.authorization, accept: 'application/json' },
      { timeoutMs: this.timeoutMs, maxBytes: MAX_JSON_BYTES, peer: 'Twilio' },
    )
    if (res.status === 404) return 'already_gone'
    if (res.status < 200 || res.status >= 300) throw twilioErrorOf(res)
    return 'released'
  }

  async createCall(req: CreateCallRequest): Promise<CarrierCall> {
    checkTwimlSize(req.twiml)
    const form = new URLSearchParams({ To: req.to, From: req.from, Twiml: req.twiml, StatusCallback: req.statusCallback, StatusCallbackMethod: 'POST' })
    for (const e of CALL_EVENTS) form.append('StatusCallbackEvent', e)
    if (req.record) {
      form.set('Record', 'true')
      form.set('RecordingChannels', 'dual')
      if (req.recordingStatusCallback) {
        form.set('RecordingStatusCallback', req.recordingStatusCallback)
        form.set('RecordingStatusCallbackMethod', 'POST')
        form.set('RecordingStatusCallbackEvent', 'completed')
      }
    }
    return this.callOf(await this.json('POST', '/Calls.json', form))
  }

  /** New instructions for a live call (a transfer: `say` + `dial`), or its end. */
  async updateCall(sid: string, req: UpdateCallRequest): Promise<CarrierCall> {
    if ('twiml' in req) checkTwimlSize(req.twiml)
    const form = 'twiml' in req ? new URLSearchParams({ Twiml: req.twiml }) : new URLSearchParams({ Status: req.status })
    return this.callOf(await this.json('POST', `/Calls/${encodeURIComponent(sid)}.json`, form))
  }

  /**
   * The WAV of a recording callback's RecordingUrl (which has no extension). Only from the configured
   * Twilio origin: the URL comes in a callback, and the account's credentials go nowhere else. Twilio
   * answers with a redirect to its media storage, followed without the credentials.
   */
  async fetchRecording(recordingUrl: string): Promise<Buffer> {
    let url: URL
    try {
      url = new URL(recordingUrl)
    } catch {
      throw new CarrierError(`The recording URL ${recordingUrl} is not an absolute URL.`, false)
    }
    const twilioOrigin = this.origin()
    if (url.origin !== twilioOrigin) {
      throw new CarrierError(`The recording URL is not on ${twilioOrigin}; Twilio credentials are not sent to ${url.origin}.`, false)
    }
    if (!/\.(wav|mp3)$/i.test(url.pathname)) url.pathname += '.wav'
    const deadline = AbortSignal.timeout(this.recordingTimeoutMs)
    const opts = { timeoutMs: this.recordingTimeoutMs, maxBytes: this.maxRecordingBytes, peer: 'Twilio' }
    let res = await sendTwilioRequest(this.k, { method: 'GET', url: url.href, authorization: this.authorization, accept: 'audio/*' }, opts, deadline)
    for (let hops = 0; isRedirect(res.status); hops++) {
      const location = header(res, 'location')
      if (!location || hops === MAX_REDIRECTS) throw new CarrierError(`Twilio answered the recording with HTTP ${res.status} ${location ? 'too many times' : 'without a Location'}.`, false, res.status)
      url = await checkTwilioUrl(this.k, new URL(location, url).href)
      res = await sendTwilioRequest(this.k, { method: 'GET', url: url.href, authorization: url.origin === twilioOrigin ? this.authorization : null, accept: 'audio/*' }, opts, deadline)
    }
    if (res.status < 200 || res.status >= 300) throw twilioErrorOf(res)
    return res.body
  }

  private origin(): string {
    try {
      return new URL(this.baseUrl).origin
    } catch {
      throw new CarrierError(`The Twilio URL ${this.baseUrl} is not an absolute URL.`, false)
    }
  }

  private async json(method: 'GET' | 'POST', path: string, form?: URLSearchParams): Promise<Record<string, unknown>> {
    const res = await sendTwilioRequest(
      this.k,
      { method, url: `${this.account}${path}`, authorization: this.authorization, form, accept: 'application/json' },
      { timeoutMs: this.timeoutMs, maxBytes: MAX_JSON_BYTES, peer: 'Twilio' },
    )
    if (res.status < 200 || res.status >= 300) throw twilioErrorOf(res)
    const body = parseJson(res.body)
    if (!body || typeof body !== 'object' || Array.isArray(body)) throw new CarrierError(`Twilio answered HTTP ${res.status} without a JSON object.`, false, res.status)
    return body as Record<string, unknown>
  }

  private callOf(c: Record<string, unknown>): CarrierCall {
    const status = typeof c.status === 'string' ? twilioStatus(c.status) : null
    if (!status) throw new CarrierError(`Twilio answered a call with an unknown status ${JSON.stringify(c.status)}.`, false)
    return { sid: stringOf(c.sid, 'sid'), status }
  }
}

/** Twilio keeps at most 64 characters of a FriendlyName (21401 beyond); ours may be longer, Twilio's copy is cut. */
const twilioFriendlyName = (name: string) => (name.length > 64 ? `${name.slice(0, 63)}…` : name)

function checkTwimlSize(twiml: string) {
  if (twiml.length > TWIML_MAX_CHARS) {
    throw new CarrierError(`Twilio 32018: the TwiML is ${twiml.length} characters; Twilio takes at most ${TWIML_MAX_CHARS} inline.`, false, null, 32018)
  }
}

function header(res: TwilioHttpResponse, name: string): string | null {
  const v = res.headers[name]
  return (Array.isArray(v) ? v[0] : v) ?? null
}

function stringOf(v: unknown, field: string): string {
  if (typeof v === 'string' && v !== '') return v
  throw new CarrierError(`Twilio answered without ${field}.`, false)
}

/** Available numbers spell it `SMS`, owned numbers `sms`. */
function capabilitiesOf(c: unknown): CarrierNumber['capabilities'] {
  const caps = (c && typeof c === 'object' ? c : {}) as Record<string, unknown>
  return { voice: caps.voice === true, sms: caps.sms === true || caps.SMS === true }
}
