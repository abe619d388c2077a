// Test support for twilio.testkit.ts (the Twilio-compatible server; its header lists the REST semantics):
// the REST API 2010-04-01 as the adapter uses it, its resources' JSON shapes and the errors Twilio answers.
import { randomBytes } from 'node:crypto'
import { XMLValidator } from 'fast-xml-parser'
import { basePath, durationOf, E164, formatted, isUrl, ownerOf, rfc2822, sid, TERMINAL, twilioError, API_VERSION, type TwilioCall, type TwilioNumber, type TwilioState } from './twilio-wire.testkit.js'

export const numberJson = (s: TwilioState, n: TwilioNumber) => ({
  account_sid: s.accountSid,
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
  uri: `${basePath(s)}/IncomingPhoneNumbers/${n.sid}.json`,
  voice_application_sid: null,
  voice_caller_id_lookup: false,
  voice_fallback_method: 'POST',
  voice_fallback_url: null,
  voice_method: n.voice_method,
  voice_receive_mode: 'voice',
  voice_url: n.voice_url,
})

export const callJson = (s: TwilioState, c: TwilioCall) => ({
  account_sid: s.accountSid,
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
  phone_number_sid: ownerOf(s, c.direction === 'inbound' ? c.to : c.from)?.sid ?? null,
  price: null,
  price_unit: 'USD',
  queue_time: '0',
  sid: c.sid,
  start_time: c.answeredAt ? rfc2822(new Date(c.answeredAt)) : null,
  status: c.status,
  subresource_uris: {
    notifications: `${basePath(s)}/Calls/${c.sid}/Notifications.json`,
    recordings: `${basePath(s)}/Calls/${c.sid}/Recordings.json`,
    payments: `${basePath(s)}/Calls/${c.sid}/Payments.json`,
    events: `${basePath(s)}/Calls/${c.sid}/Events.json`,
    siprec: `${basePath(s)}/Calls/${c.sid}/Siprec.json`,
    streams: `${basePath(s)}/Calls/${c.sid}/Streams.json`,
    user_defined_message_subscriptions: `${basePath(s)}/Calls/${c.sid}/UserDefinedMessageSubscriptions.json`,
    user_defined_messages: `${basePath(s)}/Calls/${c.sid}/UserDefinedMessages.json`,
  },
  to: c.to,
  to_formatted: formatted(c.to),
  trunk_sid: null,
  uri: `${basePath(s)}/Calls/${c.sid}.json`,
})

/**
 * The account's REST API. Recording media is served, or with `media.redirect` answered with a 302 to
 * `media.url()` (the storage server, known once it listens) carrying a one-time token kept in `media.tokens`.
 */
export function twilioRest(s: TwilioState, media: { redirect: boolean; url: () => string; tokens: Map<string, string> }) {
  const base = basePath(s)

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
    s.numbers.set(n.sid, n)
    return n
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
      return twilioError(404, 20404, `The requested resource ${base}/AvailablePhoneNumbers/${country}/Local.json was not found`)
    }
    const free = candidates.filter((p) => !ownerOf(s, p)).slice(0, pageSize)
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
        first_page_uri: `${base}/AvailablePhoneNumbers/${country}/Local.json?PageSize=${pageSize}&Page=0`,
        next_page_uri: null,
        page: 0,
        page_size: pageSize,
        previous_page_uri: null,
        start: 0,
        uri: `${base}/AvailablePhoneNumbers/${country}/Local.json?${query}`,
      },
    }
  }

  function buy(form: URLSearchParams): { status: number; body: unknown } {
    const phone = form.get('PhoneNumber') ?? ''
    if (!E164.test(phone)) return twilioError(400, 21421, `PhoneNumber is invalid`)
    if (ownerOf(s, phone)) return twilioError(400, 21422, `PhoneNumber ${phone} is not available`)
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
    return { status: 201, body: numberJson(s, n) }
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
    return { status: 200, body: numberJson(s, n) }
  }

  function createCall(form: URLSearchParams): { status: number; body: unknown } {
    const to = form.get('To')
    const from = form.get('From')
    if (!to) return twilioError(400, 21201, "No 'To' number is specified")
    if (!E164.test(to) && !/^(client|sip):/.test(to)) return twilioError(400, 21211, `The 'To' number ${to} is not a valid phone number.`)
    if (!from) return twilioError(400, 21213, "No 'From' number is specified")
    if (!ownerOf(s, from)) {
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
    s.calls.set(c.sid, c)
    return { status: 201, body: callJson(s, c) }
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
    return { status: 200, body: callJson(s, c) }
  }

  function route(method: string, path: string, query: URLSearchParams, form: URLSearchParams): { status: number; body: unknown; wav?: Buffer; location?: string } {
    const rest = path.slice(base.length)
    let m: RegExpExecArray | null
    if (method === 'GET' && (m = /^\/AvailablePhoneNumbers\/([^/]+)\/Local\.json$/.exec(rest))) return available(decodeURIComponent(m[1]), query)
    if (method === 'POST' && rest === '/IncomingPhoneNumbers.json') return buy(form)
    if (method === 'POST' && rest === '/Calls.json') return createCall(form)
    if ((m = /^\/IncomingPhoneNumbers\/(PN[0-9a-f]{32})\.json$/.exec(rest)) && s.numbers.has(m[1])) {
      const n = s.numbers.get(m[1])!
      if (method === 'GET') return { status: 200, body: numberJson(s, n) }
      if (method === 'DELETE') {
        s.numbers.delete(n.sid)
        return { status: 204, body: null }
      }
      if (method === 'POST') return updateNumber(n, form)
    }
    if ((m = /^\/Calls\/([^/]+)\.json$/.exec(rest))) {
      const c = s.calls.get(decodeURIComponent(m[1]))
      if (c && method === 'GET') return { status: 200, body: callJson(s, c) }
      if (c && method === 'POST') return updateCall(c, form)
    }
    if (method === 'GET' && (m = /^\/Recordings\/(RE[0-9a-f]{32})(\.wav)?$/.exec(rest))) {
      const r = s.recordings.get(m[1])
      if (r && media.redirect) {
        const token = randomBytes(12).toString('hex')
        media.tokens.set(token, r.sid)
        return { status: 302, body: null, location: `${media.url()}/media/${r.sid}.wav?Expires=${Math.floor(Date.now() / 1000) + 600}&Signature=${token}` }
      }
      if (r) return { status: 200, body: null, wav: r.wav }
    }
    return twilioError(404, 20404, `The requested resource ${path} was not found`)
  }

  return { route, putNumber }
}
