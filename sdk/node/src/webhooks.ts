// Verifying webhook deliveries. Either header set verifies a delivery:
//  - `Svc-Status-Signature: t=<unix>,v1=<hex>[,v1=<hex>…]`, v1 = hex(HMAC-SHA256(secret as UTF-8, "<t>.<body>"));
//  - Standard Webhooks: `webhook-id`, `webhook-timestamp`, `webhook-signature: v1,<base64>[ v1,<base64>…]`,
//    signature = base64(HMAC-SHA256(base64-decode(secret without "whsec_"), "<id>.<timestamp>.<body>")).
// Signatures are compared in constant time; timestamps further than `tolerance` seconds from now fail.

import { createHmac, randomUUID, timingSafeEqual } from 'node:crypto'
import { APIResource } from './core.js'
import { SignatureVerificationError } from './errors.js'
import type { WebhookEvent } from './generated/models.js'

/** The raw body exactly as received: a string, a Buffer or bytes (not the parsed JSON). */
export type WebhookPayload = string | Uint8Array | ArrayBuffer

/**
 * Request headers: a Headers object, Node's IncomingHttpHeaders, or a plain record (names in any case); or,
 * as Stripe's constructEvent takes it, the value of the `Svc-Status-Signature` header alone (`t=…,v1=…`).
 */
export type WebhookHeaders = string | Headers | Record<string, string | string[] | undefined | null> | Iterable<[string, string]>

export interface VerifyOptions {
  /** How far the timestamp may be from now, in seconds (default 300). */
  tolerance?: number
  /** "Now", in Unix seconds or as a Date (default: the clock). */
  now?: number | Date
}

export const DEFAULT_TOLERANCE_SECONDS = 300

function bytesOf(payload: WebhookPayload): Buffer {
  if (typeof payload === 'string') return Buffer.from(payload, 'utf8')
  if (payload instanceof ArrayBuffer) return Buffer.from(payload)
  if (payload instanceof Uint8Array) return Buffer.from(payload.buffer, payload.byteOffset, payload.byteLength)
  throw new TypeError('constructEvent needs the raw request body (string, Buffer or Uint8Array), not parsed JSON')
}

function headerOf(headers: WebhookHeaders, name: string): string | null {
  const want = name.toLowerCase()
  // A string is the signature header's value (and would otherwise iterate as characters).
  if (typeof headers === 'string') return want === 'svc-status-signature' ? headers : null
  if (typeof Headers !== 'undefined' && headers instanceof Headers) return headers.get(want)
  const entries: Iterable<[string, unknown]> =
    typeof (headers as Iterable<unknown>)[Symbol.iterator] === 'function' ? (headers as Iterable<[string, string]>) : Object.entries(headers as Record<string, unknown>)
  const found: string[] = []
  for (const [k, v] of entries) {
    if (k.toLowerCase() !== want || v === undefined || v === null) continue
    if (Array.isArray(v)) found.push(...v.map(String))
    else found.push(String(v))
  }
  return found.length ? found.join(want === 'webhook-signature' ? ' ' : ',') : null
}

const hmac = (key: Buffer | string, ...parts: Buffer[]) => {
  const h = createHmac('sha256', key)
  for (const p of parts) h.update(p)
  return h.digest()
}

/** Constant-time equality of a computed digest and a candidate (lengths differ: not equal, no early exit on content). */
function safeEqual(expected: Buffer, candidate: Buffer): boolean {
  if (candidate.length !== expected.length) return false
  return timingSafeEqual(expected, candidate)
}

function nowSeconds(now: VerifyOptions['now']): number {
  if (now instanceof Date) return Math.floor(now.getTime() / 1000)
  if (typeof now === 'number') return Math.floor(now)
  return Math.floor(Date.now() / 1000)
}

function checkTimestamp(t: string, opts: VerifyOptions): void {
  if (!/^\d+$/.test(t)) throw new SignatureVerificationError('The webhook timestamp is not a Unix time')
  const tolerance = opts.tolerance ?? DEFAULT_TOLERANCE_SECONDS
  const skew = Math.abs(nowSeconds(opts.now) - Number(t))
  if (skew > tolerance) throw new SignatureVerificationError(`The webhook timestamp is ${skew} s from now, beyond the tolerance of ${tolerance} s`)
}

function verifyStatusSignature(value: string, body: Buffer, secret: string, opts: VerifyOptions): void {
  let t: string | null = null
  const sigs: string[] = []
  for (const part of value.split(',')) {
    const eq = part.indexOf('=')
    if (eq === -1) continue
    const k = part.slice(0, eq).trim()
    const v = part.slice(eq + 1).trim()
    if (k === 't') t = v
    else if (k === 'v1') sigs.push(v)
  }
  if (t === null || sigs.length === 0) throw new SignatureVerificationError('Svc-Status-Signature has no t= or no v1= signature')
  const expected = hmac(Buffer.from(secret, 'utf8'), Buffer.from(`${t}.`, 'utf8'), body)
  const ok = sigs.some((s) => /^[0-9a-fA-F]+$/.test(s) && safeEqual(expected, Buffer.from(s, 'hex')))
  if (!ok) throw new SignatureVerificationError('No Svc-Status-Signature signature matches the payload')
  checkTimestamp(t, opts)
}

/** The Standard Webhooks key: the base64 after `whsec_`, decoded; anything that is not exactly base64 cannot be it. */
function standardKey(secret: string): Buffer {
  const b64 = secret.startsWith('whsec_') ? secret.slice('whsec_'.length) : secret
  const key = Buffer.from(b64, 'base64')
  const canonical = (s: string) => s.replace(/-/g, '+').replace(/_/g, '/').replace(/=+$/, '')
  if (key.length === 0 || canonical(key.toString('base64')) !== canonical(b64)) throw new SignatureVerificationError('The secret is not whsec_ followed by base64')
  return key
}

function verifyStandard(id: string, timestamp: string, value: string, body: Buffer, secret: string, opts: VerifyOptions): void {
  const key = standardKey(secret)
  const expected = hmac(key, Buffer.from(`${id}.${timestamp}.`, 'utf8'), body)
  const candidates = value
    .split(/\s+/)
    .filter(Boolean)
    .map((s) => s.split(','))
    .filter(([version, sig]) => version === 'v1' && !!sig)
  if (candidates.length === 0) throw new SignatureVerificationError('webhook-signature has no v1 signature')
  const ok = candidates.some(([, sig]) => safeEqual(expected, Buffer.from(sig, 'base64')))
  if (!ok) throw new SignatureVerificationError('No webhook-signature signature matches the payload')
  checkTimestamp(timestamp, opts)
}

/**
 * Verifies a delivery and returns its event (the parsed body). Throws SignatureVerificationError when
 * neither header set verifies (a changed body, a wrong secret, a timestamp beyond the tolerance).
 */
export function constructEvent<E = WebhookEvent>(payload: WebhookPayload, headers: WebhookHeaders, secret: string, options: VerifyOptions = {}): E {
  if (typeof secret !== 'string' || secret === '') throw new SignatureVerificationError('No webhook secret given')
  const body = bytesOf(payload)
  const failures: SignatureVerificationError[] = []
  const status = headerOf(headers, 'svc-status-signature')
  const id = headerOf(headers, 'webhook-id')
  const timestamp = headerOf(headers, 'webhook-timestamp')
  const signature = headerOf(headers, 'webhook-signature')
  let verified = false
  if (status !== null) {
    try {
      verifyStatusSignature(status, body, secret, options)
      verified = true
    } catch (err) {
      failures.push(err as SignatureVerificationError)
    }
  }
  if (!verified && id !== null && timestamp !== null && signature !== null) {
    try {
      verifyStandard(id, timestamp, signature, body, secret, options)
      verified = true
    } catch (err) {
      failures.push(err as SignatureVerificationError)
    }
  }
  if (!verified) {
    if (failures.length) throw failures[0]
    throw new SignatureVerificationError('No signature headers: expected Svc-Status-Signature or webhook-id/webhook-timestamp/webhook-signature')
  }
  try {
    return JSON.parse(body.toString('utf8')) as E
  } catch (err) {
    throw new SignatureVerificationError('The payload verifies but is not JSON', { cause: err })
  }
}

export interface SignOptions {
  /** Unix seconds (default now). */
  timestamp?: number
  /** The `webhook-id` (default a new msg_… id). */
  id?: string
}

/**
 * The headers a delivery of `payload` signed with `secret` would carry (both sets): for testing your
 * webhook handler.
 */
export function signWebhook(payload: WebhookPayload, secret: string, options: SignOptions = {}): Record<string, string> {
  const body = bytesOf(payload)
  const t = String(options.timestamp ?? Math.floor(Date.now() / 1000))
  const id = options.id ?? `msg_${randomUUID().replace(/-/g, '')}`
  const v1 = hmac(Buffer.from(secret, 'utf8'), Buffer.from(`${t}.`, 'utf8'), body).toString('hex')
  const std = hmac(standardKey(secret), Buffer.from(`${id}.${t}.`, 'utf8'), body).toString('base64')
  return { 'svc-status-signature': `t=${t},v1=${v1}`, 'webhook-id': id, 'webhook-timestamp': t, 'webhook-signature': `v1,${std}` }
}

/** Webhook verification as static methods: `Webhook.constructEvent(payload, headers, secret, { tolerance, now })`. */
export class Webhook {
  static constructEvent = constructEvent
  /** The same as constructEvent: returns the event, throws SignatureVerificationError. */
  static verify = constructEvent
  static sign = signWebhook
}

/**
 * What `svc.webhooks` has besides its operations: the verification helpers (the generated Webhooks
 * namespace extends this class).
 */
export class WebhookHelpers extends APIResource {
  /** Verifies a delivery and returns its event; throws SignatureVerificationError. */
  constructEvent<E = WebhookEvent>(payload: WebhookPayload, headers: WebhookHeaders, secret: string, options?: VerifyOptions): E {
    return constructEvent<E>(payload, headers, secret, options)
  }

  /** The same as constructEvent. */
  verify<E = WebhookEvent>(payload: WebhookPayload, headers: WebhookHeaders, secret: string, options?: VerifyOptions): E {
    return constructEvent<E>(payload, headers, secret, options)
  }
}
