import { parsePhoneNumberFromString } from 'libphonenumber-js/max'
import { AppError } from '../../../kernel/errors.js'

// The simulated carrier hands out numbers only from ranges reserved for fiction and testing, so no real
// person is ever dialled by mistake: NANP 555-0100…0199 (US, CA), Ofcom's drama numbers (GB), ACMA's
// fictitious ranges (AU).

interface Range {
  /** The E.164 prefix of the range for an area code, or null when the area code has no fictional range. */
  prefix(area: string): string | null
  /** Digits after the prefix: numbers run from 0 to 10^digits − 1. */
  digits: number
  /** At most this many (a range may be larger than we hand out). */
  size: number
  defaultArea: string
}

const NANP = (defaultArea: string): Range => ({ prefix: (a) => (/^[2-9][0-9]{2}$/.test(a) && a[1] !== '9' ? `+1${a}55501` : null), digits: 2, size: 100, defaultArea })

const RANGES: Record<string, Range> = {
  US: NANP('415'),
  CA: NANP('613'),
  GB: {
    // London 020 7946 0000–0999; the big cities' 01x1 / 011x 496 0000–0999.
    prefix: (a) => (a === '20' ? '+442079460' : /^(1[1-9]1|11[3-8])$/.test(a) ? `+44${a}4960` : null),
    digits: 3,
    size: 1000,
    defaultArea: '20',
  },
  AU: {
    // (02) / (07) 5550 xxxx and (03) / (08) 7010 xxxx.
    prefix: (a) => ({ '2': '+6125550', '7': '+6175550', '3': '+6137010', '8': '+6187010' })[a] ?? null,
    digits: 4,
    size: 10000,
    defaultArea: '2',
  },
}

export const SIMULATED_COUNTRIES = Object.keys(RANGES)

/** The range to provision from, or a 422 naming what is wrong. */
export function simulatedRange(country: string, areaCode: string | null): { prefix: string; area: string; candidates: () => Generator<string> } {
  const range = RANGES[country]
  if (!range) {
    throw new AppError('country_not_supported', `The simulated carrier has numbers in ${SIMULATED_COUNTRIES.join(', ')}, not ${country}.`, {
      errors: [{ pointer: '/body/country', detail: `one of ${SIMULATED_COUNTRIES.join(', ')}` }],
    })
  }
  const area = areaCode ?? range.defaultArea
  const prefix = range.prefix(area)
  if (!prefix || !isValidE164(`${prefix}${'0'.repeat(range.digits)}`)) {
    throw new AppError('validation_failed', `Area code ${area} has no fictional range in ${country}.`, { errors: [{ pointer: '/body/area_code', detail: 'no fictional range for this area code' }] })
  }
  return {
    prefix,
    area,
    *candidates() {
      for (let i = 0; i < range.size; i++) yield `${prefix}${String(i).padStart(range.digits, '0')}`
    },
  }
}

/** A complete, valid international number (libphonenumber's full metadata). */
export function isValidE164(raw: string): boolean {
  if (!/^\+[1-9][0-9]{1,14}$/.test(raw)) return false
  return parsePhoneNumberFromString(raw)?.isValid() ?? false
}

/** `raw` as E.164 (spaces, dashes and brackets tolerated), or a 422 at `pointer`. */
export function e164Or422(raw: string, pointer: string): string {
  const parsed = parsePhoneNumberFromString(raw.trim())
  if (!raw.trim().startsWith('+') || !parsed?.isValid()) {
    throw new AppError('validation_failed', `'${raw}' is not a valid phone number in E.164 form (e.g. +14155550123).`, { errors: [{ pointer, detail: 'must be a valid E.164 number' }] })
  }
  return parsed.number
}
