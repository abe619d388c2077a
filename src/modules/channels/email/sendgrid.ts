import { createPublicKey, createVerify, type KeyObject } from 'node:crypto'
import type { DeliveryStatus } from '../channels.tables.js'

// SendGrid's signed webhooks (the Event Webhook's "Signed Event Webhook", and Inbound Parse under a security
// policy with signature verification): ECDSA P-256 with SHA-256 over the timestamp header's value followed by
// the raw request body, the signature base64 (DER) in one header, the timestamp in another. The public key is
// what SendGrid shows: base64 of the DER SubjectPublicKeyInfo (PEM is taken too).

export const SIGNATURE_HEADER = 'x-twilio-email-event-webhook-signature'
export const TIMESTAMP_HEADER = 'x-twilio-email-event-webhook-timestamp'

/**
 * How old a signed timestamp may be. SendGrid documents no window; it retries an Inbound Parse post that
 * failed for up to 3 days. A replay inside the window is the same mail (or events), which the receipts and
 * the forward-only delivery states make harmless.
 */
export const SIGNATURE_MAX_AGE_MS = 3 * 24 * 3600_000 + 3600_000
/** Clocks differ: a timestamp this far ahead still counts. */
export const SIGNATURE_MAX_SKEW_MS = 5 * 60_000

/** The key of a verification key as SendGrid shows it; throws when it is not an EC P-256 public key. */
export function sendgridPublicKey(text: string): KeyObject {
  const t = text.trim()
  const key = t.startsWith('-----BEGIN') ? createPublicKey(t) : createPublicKey({ key: Buffer.from(t.replace(/\s+/g, ''), 'base64'), format: 'der', type: 'spki' })
  if (key.asymmetricKeyType !== 'ec' || key.asymmetricKeyDetails?.namedCurve !== 'prime256v1') throw new Error('not an ECDSA P-256 public key')
  return key
}

/** Whether the headers carry a fresh timestamp (before the body is read). */
export function freshTimestamp(timestamp: string, now: number): boolean {
  if (!/^\d{1,12}$/.test(timestamp)) return false
  const at = Number(timestamp) * 1000
  return at <= now + SIGNATURE_MAX_SKEW_MS && now - at <= SIGNATURE_MAX_AGE_MS
}

/** Whether `signature` signs timestamp + body with the key; any malformed part is simply false. */
export function sendgridSigned(keyText: string, timestamp: string, body: Buffer, signature: string): boolean {
  if (!/^[A-Za-z0-9+/=]{16,200}$/.test(signature)) return false
  try {
    const verify = createVerify('sha256')
    verify.update(timestamp)
    verify.update(body)
    return verify.verify(sendgridPublicKey(keyText), Buffer.from(signature, 'base64'))
  } catch {
    return false
  }
}

/** One SendGrid event as a delivery change of one of our mails (by its Message-ID, SendGrid's `smtp-id`); null: not one we follow. */
export function deliveryOfEvent(e: Record<string, unknown>): { sid: string; status: DeliveryStatus; error: { code: string | null; message: string | null } } | null {
  if (!e || typeof e !== 'object') return null
  const smtpId = typeof e['smtp-id'] === 'string' ? e['smtp-id'].trim() : ''
  const sid = smtpId.replace(/^<(.*)>$/, '$1').slice(0, 300)
  if (!sid) return null
  const reason = typeof e.reason === 'string' ? e.reason.slice(0, 500) : null
  switch (e.event) {
    case 'delivered':
      return { sid, status: 'delivered', error: { code: null, message: null } }
    case 'bounce':
      // `type` blocked: refused for now by the receiver, which SendGrid does not retry either.
      return { sid, status: 'undelivered', error: { code: e.type === 'blocked' ? 'blocked' : 'bounced', message: reason } }
    case 'dropped':
      return { sid, status: 'failed', error: { code: 'dropped', message: reason } }
    default:
      return null
  }
}
