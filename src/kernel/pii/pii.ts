import { dateOfBirthSpans } from './pii.dates.js'
import { cardSpans, ibanSpans, ipSpans, linkSpans, ssnSpans, type Span } from './pii.detectors.js'
import { phoneRegions, phoneSpans } from './pii.phones.js'

// The one personal-data detector of the service (the bots' reply masking and the compliance module use it).
// Each type is found by a library made for it where one exists; a pattern only proposes candidates.
//
// | type          | rule                                                                                       |
// |---------------|--------------------------------------------------------------------------------------------|
// | email         | linkifyjs's scanner (real TLD list: "x@y" or "v1.2@build" are not addresses); the address   |
// |               | of a "mailto:" link is an email, not a URL                                                  |
// | phone         | libphonenumber-js, full ("max") metadata, leniency "valid": national numbers of each region |
// |               | in opts.region; "+…" international numbers always. No region: international numbers only  |
// |               | (a national number means nothing without one). Numeric dates are never phones.             |
// | card_number   | 13–19 digits, single spaces or hyphens between them; card-validator decides: a known brand |
// |               | prefix, a length that brand issues and the Luhn check digit (order numbers are left alone) |
// | iban          | country code, 2 check digits, 11–30 letters/digits, spaces allowed; ibantools checks the   |
// |               | country's length and BBAN format and the mod-97 checksum                                    |
// | ip_address    | IPv4 dotted quad (no leading zeros, each part ≤ 255) or IPv6 (RFC 4291 text forms, with an |
// |               | embedded IPv4 tail); ipaddr.js validates. Version strings glued to a letter ("v1.2.3.4"),  |
// |               | times ("10:30:45") and MAC addresses are not addresses                                      |
// | url           | linkifyjs: a link with a scheme, "www.…", or a host followed by a port, path, query or      |
// |               | fragment. A bare "name.tld" is not one (file names like "notes.md" read the same)           |
// | ssn_us        | AAA-GG-SSSS or AAA GG SSSS (one separator, the same twice); never area 000, 666 or 900–999, |
// |               | group 00 or serial 0000. Nine bare digits are not taken (order and account numbers)        |
// | date_of_birth | a date only right after a cue: "date of birth", "DOB", "D.O.B.", "birth date", "birthday",  |
// |               | "born (on)"; chrono-node (strict) must read a certain day, month and year, not in the      |
// |               | future and not before 1900. Day/month order of numeric dates: month first for the US or no |
// |               | region, else day first (the first region in opts.region decides). Any other date is none   |
//
// Overlaps: the longest finding wins (a phone-like run inside a URL is the URL, an e-mail address inside a
// URL is the URL), equal lengths by the order of PII_TYPES below. Phones are found last, in the text with
// every other finding blanked out, so a card, an IBAN, an IP address or a date is never also a phone.
// `types` says which detectors run: asked only for phones, a phone inside a URL is a phone.

export const PII_TYPES = ['email', 'iban', 'card_number', 'ssn_us', 'ip_address', 'date_of_birth', 'url', 'phone'] as const
export type PiiType = (typeof PII_TYPES)[number]

export interface PiiEntity {
  type: PiiType
  /** UTF-16 offsets: `text.slice(start, end) === entity.text`. */
  start: number
  end: number
  text: string
}

export interface DetectPiiOptions {
  /** The types to look for; all when left out. */
  types?: readonly PiiType[]
  /**
   * Region(s) (ISO 3166-1 alpha-2) whose national phone numbers are found; unknown codes are ignored.
   * The first one also orders day and month in a numeric date of birth.
   */
  region?: string | readonly string[]
}

const RANK = new Map<PiiType, number>(PII_TYPES.map((t, i) => [t, i]))
// A letter: a partial number next to a blanked span is not valid for libphonenumber.
const FILLER = 'Z'

export function detectPii(text: string, opts: DetectPiiOptions = {}): PiiEntity[] {
  const want = new Set<PiiType>(opts.types ?? PII_TYPES)
  const regions = phoneRegions(opts.region)
  const candidates: Span[] = []
  if (want.has('email') || want.has('url')) candidates.push(...linkSpans(text).filter((s) => want.has(s.type)))
  if (want.has('iban')) candidates.push(...ibanSpans(text))
  if (want.has('card_number')) candidates.push(...cardSpans(text))
  if (want.has('ssn_us')) candidates.push(...ssnSpans(text))
  if (want.has('ip_address')) candidates.push(...ipSpans(text))
  if (want.has('date_of_birth')) candidates.push(...dateOfBirthSpans(text, regions[0]))
  const kept = resolveOverlaps(candidates)
  if (want.has('phone')) {
    const phones = resolveOverlaps(phoneSpans(blank(text, kept), regions))
    kept.push(...phones.filter((p) => !kept.some((s) => overlap(p, s))))
  }
  return kept.sort((a, b) => a.start - b.start).map((s) => ({ type: s.type, start: s.start, end: s.end, text: text.slice(s.start, s.end) }))
}

const overlap = (a: Span, b: Span) => a.start < b.end && b.start < a.end

/** Longest first, then by type rank; a span overlapping one already kept is dropped. */
function resolveOverlaps(spans: Span[]): Span[] {
  const ordered = [...spans].sort((a, b) => b.end - b.start - (a.end - a.start) || RANK.get(a.type)! - RANK.get(b.type)! || a.start - b.start)
  const kept: Span[] = []
  for (const s of ordered) if (!kept.some((k) => overlap(s, k))) kept.push(s)
  return kept
}

/** `text` with the spans (not overlapping) overwritten by filler of the same length. */
function blank(text: string, spans: Span[]): string {
  let out = ''
  let at = 0
  for (const s of [...spans].sort((a, b) => a.start - b.start)) {
    out += text.slice(at, s.start) + FILLER.repeat(s.end - s.start)
    at = s.end
  }
  return out + text.slice(at)
}

export { isPhoneRegion } from './pii.phones.js'
export { normalisePii, PII_REDACTION_MODES, redactPii, type PiiRedactionMode, type RedactedPiiEntity, type RedactPiiOptions } from './pii.redact.js'
