import { createHmac } from 'node:crypto'
import { parseSignatureHeader, signatureMatches, SIGNATURE_TOLERANCE_SECONDS, v1Signature } from '../../kernel/crypto/signature.js'
import type { StoredSecret } from './webhooks.tables.js'

// The signing primitives live in the kernel (tool calls are signed the same way); re-exported here so
// the webhook code keeps one import for its scheme.
export { newSecret, signatureHeaders, SIGNATURE_TOLERANCE_SECONDS, standardSignature, v1Signature } from '../../kernel/crypto/signature.js'

/**
 * Deprecated: the API v1 header `X-Svc-Signature: sha256=<hex>`, HMAC-SHA256 keyed with the whole newest
 * secret string over the raw body. No timestamp, so no replay protection, and one secret only (a receiver
 * mid-rotation fails): sent only to endpoints with `legacy_signature: true`, beside Svc-Status-Signature.
 */
export function legacySignature(secret: string, body: string): string {
  return `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`
}

export function activeSecrets(secrets: StoredSecret[], now: Date): string[] {
  return secrets.filter((s) => s.expires_at === null || Date.parse(s.expires_at) > now.getTime()).map((s) => s.secret)
}

export type SignatureResult = 'valid' | 'header_missing' | 'header_malformed' | 'timestamp_outside_tolerance' | 'secret_rotated' | 'body_changed' | 'signature_mismatch'

export interface SignatureDiagnosis {
  result: SignatureResult
  valid: boolean
  detail: string
  timestamp: number | null
  timestamp_age_seconds: number | null
  signatures_sent: number
}

/**
 * Why a received `Svc-Status-Signature` does or does not verify, for the Playground. `secrets` are all
 * the endpoint's secrets, including rotated-out ones (to tell "secret rotated" from "wrong secret");
 * `originalBody` is the body we sent (to tell "body changed").
 */
export function diagnoseSignature(header: string | undefined, receivedBody: string, originalBody: string | null, secrets: StoredSecret[], now: Date): SignatureDiagnosis {
  const base = { timestamp: null, timestamp_age_seconds: null, signatures_sent: 0 }
  if (header === undefined || header === '') {
    return { ...base, result: 'header_missing', valid: false, detail: 'The request has no Svc-Status-Signature header.' }
  }
  const parsed = parseSignatureHeader(header)
  if (!parsed) {
    return { ...base, result: 'header_malformed', valid: false, detail: 'Svc-Status-Signature must look like t=<unix seconds>,v1=<64 hex digits>[,v1=…].' }
  }
  const age = Math.round(now.getTime() / 1000 - parsed.t)
  const info = { timestamp: parsed.t, timestamp_age_seconds: age, signatures_sent: parsed.v1.length }
  const active = activeSecrets(secrets, now)
  const retired = secrets.map((s) => s.secret).filter((s) => !active.includes(s))
  const signedBy = (list: string[], body: string) => list.some((s) => signatureMatches(v1Signature(s, parsed.t, body), parsed.v1))
  if (signedBy(active, receivedBody)) {
    if (Math.abs(age) > SIGNATURE_TOLERANCE_SECONDS) {
      return {
        ...info,
        result: 'timestamp_outside_tolerance',
        valid: false,
        detail: `The signature matches but t is ${age} s away from now; receivers refuse more than ${SIGNATURE_TOLERANCE_SECONDS} s (replayed or clock skew).`,
      }
    }
    return { ...info, result: 'valid', valid: true, detail: 'A v1 signature matches an active secret of the endpoint over the received body.' }
  }
  if (signedBy(retired, receivedBody)) {
    return {
      ...info,
      result: 'secret_rotated',
      valid: false,
      detail: 'Signed with a secret the endpoint no longer uses: it was rotated and its grace period has ended. Verify with the current secret.',
    }
  }
  if (originalBody !== null && originalBody !== receivedBody && signedBy([...active, ...retired], originalBody)) {
    return { ...info, result: 'body_changed', valid: false, detail: 'The signature matches the body we sent, not the body received: something re-serialised or altered it. Verify over the raw bytes.' }
  }
  return { ...info, result: 'signature_mismatch', valid: false, detail: 'No v1 value matches any secret of the endpoint: the signing secret is not the one shown for this endpoint.' }
}
