// Test support for twilio.testkit.ts (the Twilio-compatible server; its header says how to use it): the
// wire vocabulary its parts share, from the records it keeps to Twilio's error JSON and date format.
import { randomBytes } from 'node:crypto'
import type { IncomingHttpHeaders, IncomingMessage, Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { XMLParser } from 'fast-xml-parser'

export const TEST_ACCOUNT_SID = 'AC0123456789abcdef0123456789abcdef'
export const TEST_AUTH_TOKEN = 'feedfacecafebeef0123456789abcdef'
export const API_VERSION = '2010-04-01'
export const TERMINAL = new Set(['completed', 'busy', 'no-answer', 'failed', 'canceled'])
export const E164 = /^\+[1-9]\d{6,14}$/

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

export const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`
/** RFC 2822 in GMT, as Twilio writes dates. */
export const rfc2822 = (d: Date) => d.toUTCString().replace(/ GMT$/, ' +0000')
const moreInfo = (code: number) => `https://www.twilio.com/docs/errors/${code}`

export function twilioError(status: number, code: number, message: string, extra: Record<string, unknown> = {}) {
  return { status, body: { code, message, more_info: moreInfo(code), status, ...extra } }
}

export function defaultFailure(status: number) {
  if (status === 401) return twilioError(401, 20003, 'Authenticate', { detail: 'Your AccountSid or AuthToken was incorrect.' }).body
  if (status === 403) return twilioError(403, 20403, 'Forbidden').body
  if (status === 404) return twilioError(404, 20404, 'The requested resource was not found').body
  if (status === 429) return twilioError(429, 20429, 'Too Many Requests').body
  if (status === 503) return twilioError(503, 20503, 'Service unavailable').body
  if (status >= 500) return twilioError(status, 20500, 'An internal server error has occurred').body
  return twilioError(status, 20001, 'Invalid request').body
}

/** (415) 555-0100 for NANP numbers, the number itself otherwise. */
export function formatted(e164: string): string {
  const m = /^\+1(\d{3})(\d{3})(\d{4})$/.exec(e164)
  return m ? `(${m[1]}) ${m[2]}-${m[3]}` : e164
}

export const isUrl = (s: string | null) => {
  if (!s) return false
  try {
    return ['http:', 'https:'].includes(new URL(s).protocol)
  } catch {
    return false
  }
}

/** Every <Gather> of a TwiML document, in document order within each parent. */
export function gathersOf(twiml: string): Array<Record<string, unknown>> {
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

export function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')))
    req.on('error', reject)
  })
}

export async function listen(server: Server): Promise<string> {
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`
}

/** What one server holds for its account; the REST side and the call-playing side both work on it. */
export interface TwilioState {
  accountSid: string
  authToken: string
  /** By sid. */
  numbers: Map<string, TwilioNumber>
  /** By sid. */
  calls: Map<string, TwilioCall>
  recordings: Map<string, TwilioRecording>
  webhooks: TwilioWebhookSent[]
}

/** The path every REST resource of the account lives under. */
export const basePath = (s: TwilioState) => `/${API_VERSION}/Accounts/${s.accountSid}`

export const ownerOf = (s: TwilioState, phone: string) => [...s.numbers.values()].find((n) => n.phone_number === phone) ?? null

export function durationOf(c: TwilioCall): number {
  return c.answeredAt ? Math.max(0, Math.round((c.dateUpdated.getTime() - c.answeredAt) / 1000)) : 0
}
