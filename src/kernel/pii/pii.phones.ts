import { findPhoneNumbersInText, isSupportedCountry, parsePhoneNumberFromString, type CountryCode } from 'libphonenumber-js/max'
import type { Span } from './pii.detectors.js'

// Phone numbers: libphonenumber-js with full metadata ("max": number patterns per region, not only lengths),
// leniency "valid", once per region; international "+…" numbers are found whatever the region.

const NUMERIC_DATE = /^(?:\d{4}[-/.]\d{1,2}[-/.]\d{1,2}|\d{1,2}[-/.]\d{1,2}[-/.]\d{2,4})$/

export const isPhoneRegion = (code: string): code is CountryCode => isSupportedCountry(code)

/** The usable regions of an option: upper-cased, unknown codes dropped, duplicates removed. */
export function phoneRegions(region: string | readonly string[] | undefined): CountryCode[] {
  const list = region === undefined ? [] : typeof region === 'string' ? [region] : region
  return [...new Set(list.map((r) => r.toUpperCase()))].filter(isPhoneRegion)
}

// libphonenumber throws and catches a ParseError for every candidate that is not a number (a reply's "[1]"
// markers are digits too): capturing their stack traces was most of a scan's time, and none is kept.
function quietly<T>(work: () => T): T {
  const limit = Error.stackTraceLimit
  Error.stackTraceLimit = 0
  try {
    return work()
  } finally {
    Error.stackTraceLimit = limit
  }
}

/** Phone numbers, possibly overlapping when two regions read the same digits differently. */
export function phoneSpans(text: string, regions: CountryCode[]): Span[] {
  if (!/\d/.test(text)) return []
  const out: Span[] = []
  const seen = new Set<string>()
  // No region: still international numbers (the calling code says the region).
  const list: (CountryCode | undefined)[] = regions.length ? regions : [undefined]
  quietly(() => {
    for (const region of list) {
      for (const n of findPhoneNumbersInText(text, region ? { defaultCountry: region } : {})) {
        const key = `${n.startsAt}:${n.endsAt}`
        if (seen.has(key) || NUMERIC_DATE.test(text.slice(n.startsAt, n.endsAt).trim())) continue
        seen.add(key)
        out.push({ type: 'phone', start: n.startsAt, end: n.endsAt })
      }
    }
  })
  return out
}

/** E.164 when the number is valid international or for one of the regions, else its digits (and "+"). */
export function phoneE164(text: string, regions: CountryCode[]): string {
  for (const region of [undefined, ...regions]) {
    const n = quietly(() => parsePhoneNumberFromString(text, region ? { defaultCountry: region } : {}))
    if (n?.isValid()) return n.number
  }
  return text.replace(/[^\d+]/g, '')
}
