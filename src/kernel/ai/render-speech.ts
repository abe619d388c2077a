import { toCurrency as dollars } from 'to-words/en-US'
import { toCurrency as pounds } from 'to-words/en-GB'
import { toCurrency as euros } from 'to-words/en-IE'

/**
 * Text a synthesiser reads as a person would say it. Money is said in words ("twenty five dollars and
 * fifty cents": to-words knows each currency's units and plurals); times as a 12-hour clock ("2:30 PM",
 * which espeak-ng and carriers' voices read as "two thirty P M"); ISO dates as "November 28, 2026";
 * ranges with "to"; "%" as "percent". Plain numbers stay digits: every synthesiser reads those, and the
 * call's transcript (the same text) stays readable.
 */
export function speakable(text: string): string {
  return [dates, money, times, ranges, symbols].reduce((t, f) => f(t), text)
}

const SAY_MONEY: Record<string, (n: number) => string> = {
  $: (n) => dollars(n, { doNotAddOnly: true }),
  usd: (n) => dollars(n, { doNotAddOnly: true }),
  '£': (n) => pounds(n, { doNotAddOnly: true }),
  gbp: (n) => pounds(n, { doNotAddOnly: true }),
  '€': (n) => euros(n, { doNotAddOnly: true }),
  eur: (n) => euros(n, { doNotAddOnly: true }),
}
/** An amount: digits with thousands separators and at most two decimals. */
const AMOUNT = String.raw`(\d{1,3}(?:,\d{3})+|\d+)(?:\.(\d{1,2}))?(?!\d|[.,]\d)`
const MONEY_BEFORE = new RegExp(String.raw`(?<![\w$£€])([$£€]|\b(?:USD|GBP|EUR)\s?)\s?${AMOUNT}`, 'gi')
const MONEY_AFTER = new RegExp(String.raw`(?<![\w.,])${AMOUNT}\s?(€|(?:USD|GBP|EUR)\b)`, 'gi')

function sayMoney(symbol: string, whole: string, cents: string | undefined): string | null {
  const say = SAY_MONEY[symbol.trim().toLowerCase()]
  const n = Number(whole.replace(/,/g, '')) + (cents ? Number(cents.padEnd(2, '0')) / 100 : 0)
  if (!say || !Number.isFinite(n) || n > 1e12) return null
  return say(n)
    .replace(/\bAnd\b/g, 'and')
    .toLowerCase()
}

function money(text: string): string {
  return text
    .replace(MONEY_BEFORE, (all, sym: string, whole: string, cents?: string) => sayMoney(sym, whole, cents) ?? all)
    .replace(MONEY_AFTER, (all, whole: string, cents: string | undefined, sym: string) => sayMoney(sym, whole, cents) ?? all)
}

const MONTHS = ['January', 'February', 'March', 'April', 'May', 'June', 'July', 'August', 'September', 'October', 'November', 'December']

/** 2026-11-28 → November 28, 2026 (only real dates; a time after it is left for `times`). */
function dates(text: string): string {
  return text.replace(/\b(\d{4})-(\d{2})-(\d{2})(?:T(?=\d{2}:\d{2}))?\b/g, (all, y: string, m: string, d: string) => {
    const month = Number(m)
    const day = Number(d)
    const probe = new Date(Date.UTC(Number(y), month - 1, day))
    if (month < 1 || month > 12 || probe.getUTCDate() !== day) return all
    return `${MONTHS[month - 1]} ${day}, ${y}${all.endsWith('T') ? ' at ' : ''}`
  })
}

const CLOCK = String.raw`\b([01]?\d|2[0-3]):([0-5]\d)(?::[0-5]\d)?(?:\s?([AaPp])\.?[Mm]\b(?:\.(?=\s*[a-z]))?)?`

function clock(h: number, m: number, half: string | undefined): string {
  if (half) h = (h % 12) + (half.toLowerCase() === 'p' ? 12 : 0)
  if (m === 0 && h === 12) return 'noon'
  if (m === 0 && h === 0) return 'midnight'
  const hour = h % 12 === 0 ? 12 : h % 12
  return `${hour}${m === 0 ? '' : `:${String(m).padStart(2, '0')}`} ${h < 12 ? 'AM' : 'PM'}`
}

/** 14:30 → 2:30 PM, 9:00 → 9 AM, 12:00 → noon; "9:00–18:00" → "9 AM to 6 PM". */
function times(text: string): string {
  const one = new RegExp(CLOCK, 'g')
  const range = new RegExp(`${CLOCK}\\s?[-–—]\\s?${CLOCK}`, 'g')
  return text
    .replace(range, (all, h1: string, m1: string, p1: string | undefined, h2: string, m2: string, p2: string | undefined) => {
      // "9-5 pm" style: the second half's AM/PM is the first's when the first has none and stays before it.
      return `${clock(Number(h1), Number(m1), p1)} to ${clock(Number(h2), Number(m2), p2)}`
    })
    .replace(one, (all, h: string, m: string, p: string | undefined) => clock(Number(h), Number(m), p))
}

/**
 * "3-5 business days" → "3 to 5 business days". Only short numbers on both sides, neither continuing
 * into another dash: phone numbers (555-0123, 415-555-0123) and codes keep their dashes.
 */
function ranges(text: string): string {
  return text
    .replace(/(?<![-–—\d.,/])(\d{1,3}(?:\.\d+)?)\s?[-–—]\s?(\d{1,3}(?:\.\d+)?)(?![-–—\d/])(%?)/g, (all, a: string, b: string, pct: string) => `${a}${pct} to ${b}${pct}`)
    .replace(/\b(AM|PM|noon|midnight|dollars?|cents?|pounds?|pence|euros?)\s?[-–—]\s?(?=\d)/g, '$1 to ')
}

function symbols(text: string): string {
  return text
    .replace(/(\d)\s?%/g, '$1 percent')
    .replace(/\s&\s/g, ' and ')
    .replace(/\be\.g\.,?/gi, 'for example,')
    .replace(/\bi\.e\.,?/gi, 'that is,')
    .replace(/\betc\./gi, 'and so on.')
    .replace(/\bvs\.?(?=\s)/gi, 'versus')
    .replace(/\s*[~≈]\s?(?=\d)/g, ' about ')
    .replace(/(\d)\s?[x×]\s?(\d)/g, '$1 by $2')
    .replace(/\bno\.\s?(?=\d)/gi, 'number ')
    .replace(/#\s?(?=\d)/g, 'number ')
    .replace(/ {2,}/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
}
