import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'

// The signing scheme of everything the service sends to someone else's server (webhook deliveries,
// HTTP tool calls), in the kernel so every sender signs the same way and a receiver needs one verifier.

/** Receivers should refuse a `t` further than this from their clock (replay protection). */
export const SIGNATURE_TOLERANCE_SECONDS = 300

/** `whsec_` + base64 of 32 random bytes: the Standard Webhooks secret format, usable as-is for v1. */
export function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64')}`
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

/** The signature headers of one request: one signature per active secret (two during a rotation grace). */
export function signatureHeaders(secrets: string[], messageId: string, t: number, body: string): Record<string, string> {
  return {
    'svc-status-signature': [`t=${t}`, ...secrets.map((s) => `v1=${v1Signature(s, t, body)}`)].join(','),
    'webhook-id': messageId,
    'webhook-timestamp': String(t),
    'webhook-signature': secrets.map((s) => `v1,${standardSignature(s, messageId, t, body)}`).join(' '),
  }
}

/** `t=<unix seconds>,v1=<hex>[,v1=…]`, or null when the header does not have that shape. */
export function parseSignatureHeader(header: string): { t: number; v1: string[] } | null {
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

/** Constant-time: does any of the received hex signatures equal the expected one? */
export function signatureMatches(expected: string, got: string[]): boolean {
  const e = Buffer.from(expected, 'hex')
  return got.some((g) => {
    const b = Buffer.from(g, 'hex')
    return b.length === e.length && timingSafeEqual(b, e)
  })
}

/**
 * What a receiver runs on `Svc-Status-Signature`: true when a v1 value is the HMAC of `<t>.<raw body>`
 * under one of `secrets` and `t` is within the tolerance of `now`.
 */
export function verifySignature(header: string | undefined, body: string, secrets: string[], now = new Date(), toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS): boolean {
  const parsed = header ? parseSignatureHeader(header) : null
  if (!parsed || Math.abs(now.getTime() / 1000 - parsed.t) > toleranceSeconds) return false
  return secrets.some((s) => signatureMatches(v1Signature(s, parsed.t, body), parsed.v1))
}

/** The Standard Webhooks check of `webhook-id`, `webhook-timestamp` and `webhook-signature`. */
export function verifyStandardSignature(
  headers: { id?: string; timestamp?: string; signature?: string },
  body: string,
  secrets: string[],
  now = new Date(),
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): boolean {
  const { id, timestamp, signature } = headers
  if (!id || !timestamp || !signature || !/^\d{1,12}$/.test(timestamp)) return false
  const t = Number(timestamp)
  if (Math.abs(now.getTime() / 1000 - t) > toleranceSeconds) return false
  const got = signature
    .split(' ')
    .filter((p) => p.startsWith('v1,'))
    .map((p) => Buffer.from(p.slice(3), 'base64'))
  return secrets.some((s) => {
    const e = Buffer.from(standardSignature(s, id, t, body), 'base64')
    return got.some((g) => g.length === e.length && timingSafeEqual(g, e))
  })
}
