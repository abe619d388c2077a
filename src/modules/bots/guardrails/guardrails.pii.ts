import cardValidator from 'card-validator'
import { findPhoneNumbersInText, isSupportedCountry, type CountryCode } from 'libphonenumber-js/max'
import * as linkify from 'linkifyjs'
import type { BotGuardrailsT } from './guardrails.schemas.js'
import { replaceSpans } from './guardrails.text.js'

// Personal data in a bot's reply is found by libraries made for each kind and masked in place:
// - e-mail addresses: linkifyjs's scanner (real TLD list, so "x@y" or "v1.2@build" are not addresses);
// - payment cards: a run of 13–19 digits (single spaces or hyphens between them) is only a candidate;
//   card-validator (Braintree) decides — a known brand prefix, a length that brand issues, and the Luhn
//   check digit (UnionPay included) — so an order or tracking number is left alone;
// - phone numbers: libphonenumber-js with full metadata ("max": number patterns per region, not only
//   lengths), leniency "valid", for each configured region; international "+…" numbers are found whatever
//   the region. Numeric dates, which a region's patterns can accept as a number, are never phones.

export type PiiKind = 'email' | 'card' | 'phone'
interface Span {
  start: number
  end: number
  kind: PiiKind
}

export const PII_MASK: Record<PiiKind, string> = { email: '[email]', card: '[card]', phone: '[phone]' }

const CARD_CANDIDATE = /(?<![\d-])\d(?:[ -]?\d){12,18}(?![\d])/g
// Filler for spans already taken: a letter, so a partial number next to it is not valid for libphonenumber.
const FILLER = 'Z'
const NUMERIC_DATE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/

export const isPhoneRegion = (code: string): code is CountryCode => isSupportedCountry(code)

function emails(text: string): Span[] {
  return linkify.find(text, 'email').map((e) => ({ start: e.start, end: e.end, kind: 'email' }))
}

function cards(text: string): Span[] {
  const out: Span[] = []
  for (const m of text.matchAll(CARD_CANDIDATE)) {
    const digits = m[0].replace(/\D/g, '')
    if (cardValidator.number(digits, { maxLength: 19, luhnValidateUnionPay: true }).isValid) out.push({ start: m.index!, end: m.index! + m[0].length, kind: 'card' })
  }
  return out
}

function phones(text: string, regions: string[]): Span[] {
  const out: Span[] = []
  const seen = new Set<string>()
  // No region configured: still find international numbers (the calling code says the region).
  const list: (CountryCode | undefined)[] = regions.length ? regions.filter(isPhoneRegion) : [undefined]
  // libphonenumber throws and catches a ParseError for every candidate that is not a number (a reply's "[1]"
  // markers are digits too): capturing their stack traces was most of the scan's time, and none is kept.
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    for (const region of list) {
      for (const n of findPhoneNumbersInText(text, region ? { defaultCountry: region } : {})) {
        const key = `${n.startsAt}:${n.endsAt}`
        if (seen.has(key) || NUMERIC_DATE.test(text.slice(n.startsAt, n.endsAt).trim())) continue
        seen.add(key)
        out.push({ start: n.startsAt, end: n.endsAt, kind: 'phone' })
      }
    }
  } finally {
    Error.stackTraceLimit = limit
  }
  return out
}

const blank = (text: string, spans: Span[]) => replaceSpans(text, spans, (s) => FILLER.repeat(s.end - s.start))

/** The reply with the configured kinds of personal data masked, and how many of each were found. */
export function maskPii(text: string, cfg: BotGuardrailsT['pii_masking']): { text: string; counts: Record<PiiKind, number> } {
  const counts: Record<PiiKind, number> = { email: 0, card: 0, phone: 0 }
  if (!/\d|@/.test(text)) return { text, counts }
  const spans: Span[] = []
  // E-mails first (they may hold digits), then cards (a card is also a long digit run a phone scan could take).
  let rest = text
  if (cfg.emails && text.includes('@')) {
    const found = emails(rest)
    spans.push(...found)
    rest = blank(rest, found)
  }
  if (cfg.card_numbers) {
    const found = cards(rest)
    spans.push(...found)
    rest = blank(rest, found)
  }
  if (cfg.phone_numbers) spans.push(...phones(rest, cfg.phone_regions))
  if (spans.length === 0) return { text, counts }
  const masked = replaceSpans(text, spans, (s) => {
    counts[s.kind]++
    return PII_MASK[s.kind]
  })
  return { text: masked, counts }
}
