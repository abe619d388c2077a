import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import type { StoredSecret } from './webhooks.tables.js'

/** Receivers should refuse a `t` further than this from their clock (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format, usable as-is for v1. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
}

export function activeSecrets(secrets: StoredSecret[], now: Date): string[] {
  return secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now.getTime()).map((s) => s.secret)
}

/** Stripe's scheme: hex HMAC-SHA256 keyed with the whole secret string over `<t>.<raw body>`. */
export function v1Signature(secret: string, t: number, body: string): string {
  return createHmac('sha256', secret).update(`${t}.`).update(body).digest('hex')
}

/** Standard Webhooks: base64 HMAC-SHA256 keyed with the base64-decoded part after `whsec_`, over `<id>.<t>.<body>`. */
export function standardSignature(secret: string, id: string, t: number, body: string): string {
  const key = Buffer.from(secret.startsWith('whsec_') ? secret.slice(6) : secret, 'base64')
  return createHmac('sha256', key).update(`${id}.${t}.`).update(body).digest('base64')
}

/** The signature headers of one attempt: one signature per active secret (two during a rotation grace). */
export function signatureHeaders(secrets: string[], messageId: string, t: number, body: string): Record<string, string> {
  return {
    'svc-status-signature': [`t=${t}`, ...secrets.map((s) => `v1=${v1Signature(s, t, body)}`)].join(','),
    'webhook-id': messageId,
    'webhook-timestamp': String(t),
    'webhook-signature': secrets.map((s) => `v1,${standardSignature(s, messageId, t, body)}`).join(' '),
  }
}

export type SignatureResult =
  | 'valid'
  | 'header_missing'
  | 'header_malformed'
  | 'timestamp_outside_tolerance'
  | 'secret_rotated'
  | 'body_changed'
  | 'signature_mismatch'

export interface SignatureDiagnosis {
  result: SignatureResult
  valid: boolean
  detail: string
  timestamp: number | null
  timestamp_age_seconds: number | null
  signatures_sent: number
}

function parseHeader(header: string): { t: number; v1: string[] } | null {
  let t: number | null = null
  const v1: string[] = []
  for (const part of header.split(',')) {
    const i = part.indexOf('=')
    if (i <= 0) return null
    const k = part.slice(0, i).trim()
    const v = part.slice(i + 1).trim()
    if (k === 't') {
      if (!/^\d{1,12}$/.test(v)) return null
      t = Number(v)
    } else if (k === 'v1') {
      if (!/^[0-9a-f]{64}$/.test(v)) return null
      v1.push(v)
    }
  }
  return t === null || v1.length === 0 ? null : { t, v1 }
}

const matches = (expected: string, got: string[]): boolean => {
  const e = Buffer.from(expected, 'hex')
  return got.some((g) => {
    const b = Buffer.from(g, 'hex')
    return b.length === e.length && timingSafeEqual(b, e)
  })
}

/**
 * Why a received `Svc-Status-Signature` does or does not verify, for the Playground. `secrets` are all
 * the endpoint's secrets, including rotated-out ones (to tell "secret rotated" from "wrong secret");
 * `originalBody` is the body we sent (to tell "body changed").
 */
export function diagnoseSignature(
  header: string | undefined,
  receivedBody: string,
  originalBody: string | null,
  secrets: StoredSecret[],
  now: Date,
): SignatureDiagnosis {
  const base = { timestamp: null, timestamp_age_seconds: null, signatures_sent: 0 }
  if (header === undefined || header === '') {
    return { ...base, result: 'header_missing', valid: false, detail: 'The request has no Svc-Status-Signature header.' }
  }
  const parsed = parseHeader(header)
  if (!parsed) {
    return { ...base, result: 'header_malformed', valid: false, detail: 'Svc-Status-Signature must look like t=<unix seconds>,v1=<64 hex digits>[,v1=…].' }
  }
  const age = Math.round(now.getTime() / 1000 - parsed.t)
  const info = { timestamp: parsed.t, timestamp_age_seconds: age, signatures_sent: parsed.v1.length }
  const active = activeSecrets(secrets, now)
  const retired = secrets.map((s) => s.secret).filter((s) => !active.includes(s))
  const signedBy = (list: string[], body: string) => list.some((s) => matches(v1Signature(s, parsed.t, body), parsed.v1))
  if (signedBy(active, receivedBody)) {
    if (Math.abs(age) > SIGNATURE_TOLERANCE_SECONDS) {
      return { ...info, result: 'timestamp_outside_tolerance', valid: false, detail: `The signature matches but t is ${age} s away from now; receivers refuse more than ${SIGNATURE_TOLERANCE_SECONDS} s (replayed or clock skew).` }
    }
    return { ...info, result: 'valid', valid: true, detail: 'A v1 signature matches an active secret of the endpoint over the received body.' }
  }
  if (signedBy(retired, receivedBody)) {
    return { ...info, result: 'secret_rotated', valid: false, detail: 'Signed with a secret the endpoint no longer uses: it was rotated and its grace period has ended. Verify with the current secret.' }
  }
  if (originalBody !== null && originalBody !== receivedBody && signedBy([...active, ...retired], originalBody)) {
    return { ...info, result: 'body_changed', valid: false, detail: 'The signature matches the body we sent, not the body received: something re-serialised or altered it. Verify over the raw bytes.' }
  }
  return { ...info, result: 'signature_mismatch', valid: false, detail: 'No v1 value matches any secret of the endpoint: the signing secret is not the one shown for this endpoint.' }
}
