// Test support (not a test file itself): the real app listening on 127.0.0.1 (so that Twilio's side can
// reach it over HTTP), and a Twilio-compatible Messaging server speaking the REST API 2010-04-01 as the
// adapter uses it and playing Twilio's side: inbound message webhooks and status callbacks, signed with
// the OFFICIAL twilio package, so our verifier is held to an independent implementation.
//
//   const tw = await startTwilioMessaging()          // fixed test AccountSid / auth token
//   tw.requests                                       // every REST request: method, path, headers, form
//   tw.failNext(429) / tw.failNext(400, 21211)        // the next Messages.json answers that, with Twilio's error JSON
//   await tw.inbound(url, { from, to, body })          // a customer's message → { status, body, sid }
//   await tw.status(sid, 'delivered')                  // the message's StatusCallback → our status code
//   tw.addMedia(bytes, 'image/jpeg')                   // a customer's media → its MediaUrl (basic auth, then a 307 to a CDN)
//
// REST, as Twilio answers: POST /2010-04-01/Accounts/{Sid}/Messages.json with To (missing 21604, not E.164
// or whatsapp:E.164 21211), From or MessagingServiceSid (neither 21603; a sid not MG… 21701), Body,
// MediaUrl or ContentSid (none 21602; ContentSid not HX… 21656, ContentVariables not a JSON object 21657),
// a From/To pair mixing whatsapp: and SMS (21910), StatusCallback → 201 { sid SM…, status queued, … }.
// Basic auth AccountSid:AuthToken (401 20003), the path's account must be that one. Media: GET
// /2010-04-01/Accounts/{Sid}/Messages/{MM}/Media/{ME} with the same basic auth answers 307 to another
// origin (a second server, standing for Twilio's media CDN) that serves the bytes without credentials.
import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import JSZip from 'jszip'
import twilio from 'twilio'
import { ManualClock } from '../../kernel/clock.js'
import { request } from 'undici'
import { createTestApp, get, ok, post, type TestApp } from '../../../test/helpers.js'
import { freePort } from '../../../test/spawn.js'

export { assertProblem, events, get, json, ok, patch, post } from '../../../test/helpers.js'

export const TEST_ACCOUNT_SID = 'AC00112233445566778899aabbccddeeff'
export const TEST_AUTH_TOKEN = 'c0ffee00c0ffee00c0ffee00c0ffee00'
const API_VERSION = '2010-04-01'
const ADDRESS = /^(whatsapp:)?\+[1-9]\d{6,14}$/

const sid = (prefix: string) => `${prefix}${randomBytes(16).toString('hex')}`

export interface ChannelsApp extends TestApp {
  clock: ManualClock
}

/** The app listening on a free port of 127.0.0.1, PUBLIC_URL pointing there, on a clock the test moves (retries). */
export async function channelsApp(env: Record<string, string> = {}): Promise<ChannelsApp> {
  const port = await freePort()
  const clock = new ManualClock(Date.parse('2026-11-28T09:00:00Z'))
  const h = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}`, ...env }, clock })
  await h.app.http.listen({ port, host: '127.0.0.1' })
  return Object.assign(h, { clock })
}

export const newChannel = (h: TestApp, body: Record<string, unknown> = {}, key?: string) =>
  ok(post(h, '/channels', { type: 'sms', name: 'Support SMS', phone_number: `+1415555${String(Math.floor(1000 + Math.random() * 9000))}`, ...body }, { key }), 201)

export interface TwilioMessage {
  sid: string
  to: string
  from: string
  body: string
  media: string[]
  status: string
  status_callback: string | null
  messaging_service_sid: string | null
  content_sid: string | null
  content_variables: Record<string, string> | null
}

export interface MessagingRequestSeen {
  method: string
  path: string
  headers: IncomingHttpHeaders
  form: URLSearchParams
}

/** POSTs a form signed as Twilio signs its webhooks (with `token`, over `url` and the parameters). */
export async function signedPost(url: string, params: Record<string, string>, token: string): Promise<{ status: number; body: string; contentType: string }> {
  const res = await request(url, {
    method: 'POST',
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      'x-twilio-signature': twilio.getExpectedTwilioSignature(token, url, params),
      'i-twilio-idempotency-token': randomBytes(16).toString('hex'),
      'user-agent': 'TwilioProxy/1.1',
    },
    body: new URLSearchParams(params).toString(),
  })
  return { status: res.statusCode, body: await res.body.text(), contentType: String(res.headers['content-type'] ?? '') }
}

export async function startTwilioMessaging(opts: { accountSid?: string; authToken?: string } = {}) {
  const accountSid = opts.accountSid ?? TEST_ACCOUNT_SID
  const authToken = opts.authToken ?? TEST_AUTH_TOKEN
  const messages = new Map<string, TwilioMessage>()
  const requests: MessagingRequestSeen[] = []
  const scripted: { status: number; code: number }[] = []
  const expectedAuth = `Basic ${Buffer.from(`${accountSid}:${authToken}`).toString('base64')}`
  const media = new Map<string, { bytes: Buffer; type: string; cdnToken: string }>()
  const cdnRequests: MessagingRequestSeen[] = []
  // Twilio's media CDN: another origin, short-lived unguessable paths, no credentials.
  const cdn: Server = createServer((req, res) => {
    cdnRequests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form: new URLSearchParams() })
    const found = [...media.values()].find((x) => req.url === `/cdn/${x.cdnToken}`)
    if (!found) return res.writeHead(404).end()
    res.writeHead(200, { 'content-type': found.type, 'content-length': String(found.bytes.length) }).end(found.bytes)
  })
  await new Promise<void>((resolve) => cdn.listen(0, '127.0.0.1', resolve))
  const cdnUrl = `http://127.0.0.1:${(cdn.address() as AddressInfo).port}`

  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const form = new URLSearchParams(Buffer.concat(chunks).toString('utf8'))
      requests.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, form })
      const fail = (status: number, code: number, message: string) =>
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ code, message, more_info: `https://www.twilio.com/docs/errors/${code}`, status }))
      if (req.headers.authorization !== expectedAuth) return fail(401, 20003, 'Authenticate')
      const item = req.method === 'GET' ? media.get(req.url ?? '') : undefined
      if (item) return res.writeHead(307, { location: `${cdnUrl}/cdn/${item.cdnToken}` }).end()
      if (req.method !== 'POST' || req.url !== `/${API_VERSION}/Accounts/${accountSid}/Messages.json`) return fail(404, 20404, 'The requested resource was not found')
      const next = scripted.shift()
      if (next) return fail(next.status, next.code, `Scripted failure ${next.code}`)
      const to = form.get('To') ?? ''
      const from = form.get('From') ?? ''
      const mediaUrls = form.getAll('MediaUrl')
      const service = form.get('MessagingServiceSid')
      const contentSid = form.get('ContentSid')
      let variables: Record<string, string> | null = null
      if (!to) return fail(400, 21604, "A 'To' phone number is required.")
      if (!from && !service) return fail(400, 21603, "A 'From' phone number is required.")
      if (service && !/^MG[0-9a-fA-F]{32}$/.test(service)) return fail(400, 21701, 'The Messaging Service Sid is invalid.')
      if (!ADDRESS.test(to)) return fail(400, 21211, `The 'To' number ${to} is not a valid phone number.`)
      if (from && to.startsWith('whatsapp:') !== from.startsWith('whatsapp:')) return fail(400, 21910, 'Invalid From and To pair. From and To should be of the same channel')
      if (contentSid !== null && !/^HX[0-9a-fA-F]{32}$/.test(contentSid)) return fail(400, 21656, 'The ContentSid is Invalid.')
      if (form.has('ContentVariables')) {
        try {
          variables = JSON.parse(form.get('ContentVariables')!)
        } catch {
          variables = null
        }
        if (!variables || typeof variables !== 'object' || Array.isArray(variables)) return fail(400, 21657, 'The ContentVariables Parameter is invalid.')
      }
      if (!form.get('Body') && mediaUrls.length === 0 && !contentSid) return fail(400, 21602, 'Message body is required.')
      const m: TwilioMessage = {
        sid: sid('SM'),
        to,
        from,
        body: form.get('Body') ?? '',
        media: mediaUrls,
        status: 'queued',
        status_callback: form.get('StatusCallback'),
        messaging_service_sid: service,
        content_sid: contentSid,
        content_variables: variables,
      }
      messages.set(m.sid, m)
      res.writeHead(201, { 'content-type': 'application/json' }).end(
        JSON.stringify({
          account_sid: accountSid,
          api_version: API_VERSION,
          body: m.body,
          direction: 'outbound-api',
          from: m.from,
          to: m.to,
          messaging_service_sid: service,
          num_media: String(mediaUrls.length),
          num_segments: '1',
          sid: m.sid,
          status: 'queued',
          error_code: null,
          error_message: null,
          uri: `/${API_VERSION}/Accounts/${accountSid}/Messages/${m.sid}.json`,
        }),
      )
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`

  return {
    url,
    accountSid,
    authToken,
    messages,
    requests,
    credentials: { account_sid: accountSid, auth_token: authToken, base_url: url },
    failNext(status: number, code = status === 429 ? 20429 : 20500) {
      scripted.push({ status, code })
    },
    /** Requests that reached the media CDN (they must carry no credentials). */
    cdnRequests,
    /** A customer's media file as Twilio keeps it: its MediaUrl (under the REST API, basic auth). */
    addMedia(bytes: Buffer, type: string): string {
      const path = `/${API_VERSION}/Accounts/${accountSid}/Messages/${sid('MM')}/Media/${sid('ME')}`
      media.set(path, { bytes, type, cdnToken: randomBytes(12).toString('hex') })
      return `${url}${path}`
    },
    /** A customer's message to `to`, posted to the channel's messages URL as Twilio does. */
    async inbound(target: string, m: { from: string; to: string; body: string; media?: { url: string; type: string }[]; sid?: string; optOutType?: string; token?: string; whatsapp?: boolean }) {
      const messageSid = m.sid ?? sid(m.media?.length ? 'MM' : 'SM')
      const address = (p: string) => (m.whatsapp ? `whatsapp:${p}` : p)
      const params: Record<string, string> = {
        ToCountry: 'US',
        SmsMessageSid: messageSid,
        NumMedia: String(m.media?.length ?? 0),
        SmsSid: messageSid,
        SmsStatus: 'received',
        Body: m.body,
        To: address(m.to),
        NumSegments: '1',
        MessageSid: messageSid,
        AccountSid: accountSid,
        From: address(m.from),
        ApiVersion: API_VERSION,
      }
      m.media?.forEach((x, i) => {
        params[`MediaUrl${i}`] = x.url
        params[`MediaContentType${i}`] = x.type
      })
      if (m.optOutType) params.OptOutType = m.optOutType
      return { ...(await signedPost(target, params, m.token ?? authToken)), sid: messageSid }
    },
    /** The message moves to `status` and Twilio tells its StatusCallback (null when it has none). */
    async status(messageSid: string, status: string, extra: { errorCode?: string; token?: string } = {}): Promise<number | null> {
      const m = messages.get(messageSid)
      if (!m) throw new Error(`no message ${messageSid}`)
      m.status = status
      if (!m.status_callback) return null
      const params: Record<string, string> = { AccountSid: accountSid, ApiVersion: API_VERSION, MessageSid: m.sid, SmsSid: m.sid, MessageStatus: status, SmsStatus: status, From: m.from, To: m.to }
      if (extra.errorCode) params.ErrorCode = extra.errorCode
      return (await signedPost(m.status_callback, params, extra.token ?? authToken)).status
    },
    close: async () => {
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await new Promise<void>((resolve) => cdn.close(() => resolve()))
    },
  }
}

export type TwilioMessaging = Awaited<ReturnType<typeof startTwilioMessaging>>

/** The channel route tests' set-up: the app (not listening) and a Twilio Messaging server; `close` ends both. */
export async function appWithTwilio(): Promise<{ h: TestApp; tw: TwilioMessaging; close: () => Promise<void> }> {
  const h = await createTestApp()
  const tw = await startTwilioMessaging()
  const close = async () => {
    await h.close()
    await tw.close()
  }
  return { h, tw, close }
}

/** A data-subject request about `subject`, run through its job to the end: the finished request. */
export async function runDsar(h: TestApp, type: 'access' | 'erasure', subject: { phone?: string; email?: string }) {
  const d = await ok(post(h, '/compliance/dsar', { type, subject }), 201)
  await h.drainJobs()
  const done = await ok(get(h, `/compliance/dsar/${d.id}`))
  assert.equal(done.status, 'completed')
  return done
}

/** A finished request's export, made and downloaded through the API: the archive, its manifest and the channels' records. */
export async function dsarExport(h: TestApp, id: string) {
  await ok(post(h, `/compliance/dsar/${id}/export`), 202)
  await h.drainJobs()
  const ready = await ok(get(h, `/compliance/dsar/${id}`))
  assert.equal(ready.export.status, 'ready', JSON.stringify(ready.export))
  const res = await h.http().inject({ method: 'GET', url: new URL(ready.export.url).pathname })
  assert.equal(res.statusCode, 200)
  const zip = await JSZip.loadAsync(res.rawPayload)
  return { zip, manifest: JSON.parse(await zip.file('manifest.json')!.async('string')), channels: JSON.parse(await zip.file('channels.json')!.async('string')) }
}

/** A request of a web chat channel's widget API, from `origin` (an allowed site), with the visitor's token when given. */
export function widgetRequest(h: TestApp, channel: { web_chat: { public_key: string } }, origin: string, method: 'GET' | 'POST', path: string, opts: { body?: unknown; token?: string } = {}) {
  return h.request({
    method,
    url: `/widget/v1/channels/${channel.web_chat.public_key}${path}`,
    key: null,
    headers: { origin, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
    ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
  })
}
