import { createHmac } from 'node:crypto'
import { electronicFormatIBAN } from 'ibantools'
import ipaddr from 'ipaddr.js'
import { isoDate } from './pii.dates.js'
import type { PiiEntity, PiiType } from './pii.js'
import { phoneE164, phoneRegions } from './pii.phones.js'

export const PII_REDACTION_MODES = ['mask', 'remove', 'hash'] as const
export type PiiRedactionMode = (typeof PII_REDACTION_MODES)[number]

export interface RedactPiiOptions {
  /** HMAC key of mode "hash" (required there): without a secret key an e-mail's hash is a dictionary look-up. */
  hashKey?: Buffer
  /** The region(s) given to detectPii: they read national phone numbers and numeric dates the same way. */
  region?: string | readonly string[]
}

export type RedactedPiiEntity = PiiEntity & {
  replacement: string
  /** Where the replacement is in the redacted text (equal for mode "remove"). */
  redacted_start: number
  redacted_end: number
}

const HASH_HEX = 12

const digits = (s: string) => s.replace(/\D/g, '')

function attempt(work: () => string | undefined, fallback: string): string {
  try {
    return work() ?? fallback
  } catch {
    return fallback
  }
}

/** The value a hash is taken of: one spelling per value, so the same value written two ways joins. */
export function normalisePii(type: PiiType, text: string, region?: string | readonly string[]): string {
  switch (type) {
    case 'email':
      return text.toLowerCase()
    case 'phone':
      return phoneE164(text, phoneRegions(region))
    case 'card_number':
    case 'ssn_us':
      return digits(text)
    case 'iban':
      return electronicFormatIBAN(text) ?? text
    case 'ip_address':
      return attempt(() => ipaddr.parse(text).toString(), text)
    case 'url':
      return attempt(() => new URL(/^[a-z][a-z0-9+.-]*:/i.test(text) ? text : `http://${text}`).href, text)
    case 'date_of_birth':
      return isoDate(text, phoneRegions(region)[0]) ?? text
  }
}

/**
 * `text` with each entity replaced: "[EMAIL]" (mask), nothing (remove: only the entity is deleted, the
 * spaces around it stay, so every offset is exact), or "[EMAIL:<12 hex of HMAC-SHA256(hashKey, normalised
 * value)>]" (hash: the same value gives the same token, so redacted records can still be joined).
 * The entities must be those of this text (their `text` is checked) and must not overlap.
 */
export function redactPii(text: string, entities: readonly PiiEntity[], mode: PiiRedactionMode, opts: RedactPiiOptions = {}): { text: string; entities: RedactedPiiEntity[] } {
  if (mode === 'hash' && !opts.hashKey?.length) throw new TypeError('redactPii: mode "hash" needs a hashKey')
  const replacement = (e: PiiEntity): string => {
    const label = e.type.toUpperCase()
    if (mode === 'mask') return `[${label}]`
    if (mode === 'remove') return ''
    const hash = createHmac('sha256', opts.hashKey!)
      .update(normalisePii(e.type, e.text, opts.region))
      .digest('hex')
    return `[${label}:${hash.slice(0, HASH_HEX)}]`
  }
  const sorted = [...entities].sort((a, b) => a.start - b.start)
  const out: RedactedPiiEntity[] = []
  let redacted = ''
  let at = 0
  for (const e of sorted) {
    if (text.slice(e.start, e.end) !== e.text || e.start >= e.end) throw new RangeError(`redactPii: the entity at ${e.start}–${e.end} does not match the text`)
    if (e.start < at) throw new RangeError(`redactPii: the entity at ${e.start}–${e.end} overlaps the one before it`)
    redacted += text.slice(at, e.start)
    const r = replacement(e)
    out.push({ type: e.type, start: e.start, end: e.end, text: e.text, replacement: r, redacted_start: redacted.length, redacted_end: redacted.length + r.length })
    redacted += r
    at = e.end
  }
  return { text: redacted + text.slice(at), entities: out }
}
