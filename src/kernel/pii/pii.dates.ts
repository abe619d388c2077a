import { Chrono, type ParsedResult } from 'chrono-node'
import * as en from 'chrono-node/en'
import type { Span } from './pii.detectors.js'

// A date is personal only when the text says whose birth it is: a date is taken right after a cue, never on
// its own (delivery dates, invoice dates and deadlines read the same). chrono-node's strict parser reads it
// (formal dates only: no "tomorrow" or "Friday"); day, month and year must all be written.

const CUE = /(?<![\p{L}\p{N}])(?:date of birth|birth ?date|birthday|d\.o\.b\.?|dob|born(?: on)?)(?![\p{L}\p{N}])[ \t]*(?:[:=–-][ \t]*|(?:is|was|on)[ \t]+)?/giu
// Enough for the longest written date ("Wednesday, the 12th of September 1980").
const WINDOW = 48
const EARLIEST_YEAR = 1900

const monthFirst = en.strict
const dayFirst = new Chrono(en.configuration.createConfiguration(true, true))

/** The parser for a region: numeric dates are month first in the US (and with no region), else day first. */
const parserFor = (region: string | undefined) => (region === undefined || region === 'US' ? monthFirst : dayFirst)

/** The date written at the very start of `text`, when it is a plausible birth date. */
function birthDateAt(text: string, region: string | undefined): ParsedResult | undefined {
  const [first] = parserFor(region).parse(text, new Date(), { forwardDate: false })
  if (!first || first.index !== 0 || !(['day', 'month', 'year'] as const).every((c) => first.start.isCertain(c))) return undefined
  const year = first.start.get('year')!
  return year >= EARLIEST_YEAR && first.start.date().getTime() <= Date.now() ? first : undefined
}

export function dateOfBirthSpans(text: string, region: string | undefined): Span[] {
  const out: Span[] = []
  for (const m of text.matchAll(CUE)) {
    const start = m.index! + m[0].length
    const date = birthDateAt(text.slice(start, start + WINDOW), region)
    const end = start + (date?.text.length ?? 0)
    // "05/12/19801" is not a date followed by a digit.
    if (date && !/^[\p{L}\p{N}]/u.test(text.slice(end, end + 1))) out.push({ type: 'date_of_birth', start, end })
  }
  return out
}

/** ISO 8601 (YYYY-MM-DD) of a date of birth as found, read with the same region's order. */
export function isoDate(text: string, region: string | undefined): string | undefined {
  const date = birthDateAt(text, region)
  if (!date) return undefined
  const part = (c: 'year' | 'month' | 'day', width: number) => String(date.start.get(c)).padStart(width, '0')
  return `${part('year', 4)}-${part('month', 2)}-${part('day', 2)}`
}
