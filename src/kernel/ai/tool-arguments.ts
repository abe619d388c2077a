import * as chrono from 'chrono-node'
import { findPhoneNumbersInText, type CountryCode } from 'libphonenumber-js'
import * as linkify from 'linkifyjs'
import { validateArguments } from '../tools/tool-parameters.js'
import { normaliseTerm } from './ranker.js'

// Fills a tool's arguments from a customer's message for the builtin engine: parsing libraries where one
// exists (chrono-node for dates and times, libphonenumber-js for phone numbers, linkifyjs for e-mail
// addresses), the schema's own hints (enum values, pattern, format, minimum/maximum) and the argument's
// name for everything else. A value is taken only where the message holds one; an argument it cannot
// find stays missing (no guessing).

interface Prop {
  type?: string | string[]
  format?: string
  enum?: unknown[]
  pattern?: string
  description?: string
  minimum?: number
  maximum?: number
  maxLength?: number
}

interface Candidate {
  start: number
  end: number
  value: unknown
}

export interface Extraction {
  args: Record<string, unknown>
  /** Required arguments the message does not give. */
  missing: string[]
  /** Character ranges of the message the values came from. */
  spans: { start: number; end: number }[]
}

export interface ExtractOptions {
  now: Date
  region?: string | null
}

// 1,200 / 1,200.50 (thousands) or 49 / 49.90 / 49,90 (decimal comma), not inside a word or an id.
const NUMBER = /(?<![\w.,#])[-+]?(?:\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:[.,]\d+)?)(?![\w])/g
const ID_TOKEN = /#?[A-Za-z0-9](?:[A-Za-z0-9_-]*[A-Za-z0-9])?/g
const WORD = /[\p{L}\p{N}_#-]+/gu

const DATE_CUES = new Set([
  'date',
  'day',
  'time',
  'when',
  'start',
  'end',
  'from',
  'until',
  'deadline',
  'checkin',
  'checkout',
  'arrival',
  'departure',
  'schedule',
  'scheduled',
  'datetime',
  'appointment',
  'slot',
  'due',
  'at',
  'on',
])
const PHONE_CUES = new Set(['phone', 'mobile', 'tel', 'telephone', 'cell', 'msisdn'])
const ID_CUES = new Set(['id', 'number', 'no', 'ref', 'reference', 'code', 'sku', 'ticket', 'order', 'invoice', 'tracking'])
const TEXT_CUES = new Set([
  'query',
  'question',
  'message',
  'text',
  'reason',
  'description',
  'details',
  'comment',
  'note',
  'notes',
  'content',
  'summary',
  'issue',
  'problem',
  'subject',
  'topic',
  'request',
])

const wordsOfName = (name: string): string[] =>
  name
    .split(/_|-|(?=[A-Z])/)
    .map((w) => w.toLowerCase())
    .filter(Boolean)
const typeOf = (p: Prop): string | undefined => (Array.isArray(p.type) ? p.type.find((t) => t !== 'null') : p.type)
const overlaps = (a: { start: number; end: number }, b: { start: number; end: number }) => a.start < b.end && b.start < a.end
const pad = (n: number, w = 2) => String(n).padStart(w, '0')

function safeRegExp(pattern: string | undefined): RegExp | null {
  if (!pattern || pattern.length > 200) return null
  try {
    return new RegExp(pattern, 'u')
  } catch {
    return null
  }
}

function jsonObject(text: string): Record<string, unknown> | null {
  const t = text.trim()
  if (!t.startsWith('{')) return null
  try {
    const v = JSON.parse(t)
    return v && typeof v === 'object' && !Array.isArray(v) ? v : null
  } catch {
    return null
  }
}

function parseNumber(raw: string): number {
  return Number(/,\d{3}(?:\D|$)/.test(raw) && !/,\d{1,2}$/.test(raw) ? raw.replace(/,/g, '') : raw.replace(',', '.'))
}

/** Every value of each kind the message holds, found once. */
class Scan {
  readonly words: { start: number; end: number; term: string | null }[]
  readonly emails: Candidate[]
  readonly phones: Candidate[]
  readonly dates: (Candidate & { value: chrono.ParsedComponents })[]
  readonly ids: Candidate[]
  readonly numbers: Candidate[]
  /** Spans of candidates already given to an argument. */
  readonly used: Candidate[] = []

  constructor(
    readonly text: string,
    opts: ExtractOptions,
  ) {
    this.words = [...text.matchAll(WORD)].map((m) => ({ start: m.index!, end: m.index! + m[0].length, term: normaliseTerm(m[0].replace(/^#/, '')) }))
    this.emails = linkify.find(text, 'email').map((m) => ({ start: m.start, end: m.end, value: m.value }))
    const region = opts.region ? (opts.region.toUpperCase() as CountryCode) : undefined
    this.phones = findPhoneNumbersInText(text, region ? { defaultCountry: region } : undefined)
      .filter((p) => !this.emails.some((e) => overlaps(e, { start: p.startsAt, end: p.endsAt })))
      .map((p) => ({ start: p.startsAt, end: p.endsAt, value: p.number.number }))
    const taken = [...this.emails, ...this.phones]
    this.dates = chrono
      .parse(text, { instant: opts.now, timezone: 'UTC' }, { forwardDate: true })
      .filter((r) => !taken.some((t) => overlaps(t, { start: r.index, end: r.index + r.text.length })))
      .flatMap((r) => [r.start, ...(r.end ? [r.end] : [])].map((value) => ({ start: r.index, end: r.index + r.text.length, value })))
    const notInside = (c: Candidate) => !taken.some((t) => overlaps(t, c))
    this.ids = [...text.matchAll(ID_TOKEN)]
      .map((m) => ({ start: m.index!, end: m.index! + m[0].length, value: m[0].replace(/^#/, '') }))
      .filter((c) => /\d/.test(c.value as string) && (/[A-Za-z_-]/.test(c.value as string) || text[c.start] === '#' || (c.value as string).length >= 4))
      .filter(notInside)
      .filter((c) => !this.dates.some((d) => overlaps(d, c)))
    const lettered = this.ids.filter((c) => /[A-Za-z_-]/.test(c.value as string))
    this.numbers = [...text.matchAll(NUMBER)]
      .map((m) => ({ start: m.index!, end: m.index! + m[0].length, value: parseNumber(m[0]) }))
      .filter((c) => Number.isFinite(c.value) && notInside(c) && !lettered.some((l) => overlaps(l, c)) && !this.dates.some((d) => overlaps(d, c)))
  }

  /** The unused candidate nearest to words of the argument's name or description (ties: the earliest). */
  pick<C extends Candidate>(list: C[], cues: Set<string>, accept: (c: C) => boolean = () => true): C | null {
    let best: C | null = null
    let bestScore = -1
    for (const c of list) {
      if (this.used.includes(c) || !accept(c)) continue
      const before = this.words.filter((w) => w.end <= c.start).slice(-4)
      const after = this.words.filter((w) => w.start >= c.end).slice(0, 2)
      const score = [...before, ...after].filter((w) => w.term && cues.has(w.term)).length
      if (score > bestScore) {
        best = c
        bestScore = score
      }
    }
    if (best) this.used.push(best)
    return best
  }
}

// The engine tries each candidate tool on the same message: parse it once (chrono is the costly part).
let last: { key: string; scan: Scan } | null = null
function scanOf(text: string, opts: ExtractOptions): Scan {
  const key = `${opts.now.getTime()}\n${opts.region ?? ''}\n${text}`
  if (last?.key !== key) last = { key, scan: new Scan(text, opts) }
  last.scan.used.length = 0
  return last.scan
}

function dateValue(c: chrono.ParsedComponents, format: string | undefined): string | null {
  const date = `${c.get('year')}-${pad(c.get('month')!)}-${pad(c.get('day')!)}`
  const time = `${pad(c.get('hour')!)}:${pad(c.get('minute') ?? 0)}:${pad(c.get('second') ?? 0)}`
  if (format === 'date') return date
  if (format === 'time') return c.isCertain('hour') ? time : null
  if (format === 'date-time' || c.isCertain('hour')) return c.date().toISOString()
  return date
}

function extractOne(name: string, p: Prop, scan: Scan): unknown {
  const words = wordsOfName(name)
  const cues = new Set([...words, ...(p.description ? p.description.split(/\W+/) : [])].map((w) => normaliseTerm(w)).filter((w): w is string => !!w))
  const type = typeOf(p)
  const has = (set: Set<string>) => words.some((w) => set.has(w))
  if (Array.isArray(p.enum)) {
    const hits = p.enum
      .map((v) => ({
        v,
        at:
          String(v).length > 0
            ? scan.text.search(
                new RegExp(
                  `(?<![\\p{L}\\p{N}])${String(v)
                    .replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
                    .replace(/[_\s-]+/g, '[_\\s-]+')}(?![\\p{L}\\p{N}])`,
                  'iu',
                ),
              )
            : -1,
      }))
      .filter((h) => h.at >= 0)
      .sort((a, b) => a.at - b.at)
    return hits[0]?.v
  }
  if (type === 'integer' || type === 'number') {
    const fits = (c: Candidate) => {
      const n = c.value as number
      return (type === 'number' || Number.isInteger(n)) && (p.minimum === undefined || n >= p.minimum) && (p.maximum === undefined || n <= p.maximum)
    }
    return scan.pick(scan.numbers, cues, fits)?.value
  }
  if (type !== undefined && type !== 'string') return undefined
  if (p.format === 'email' || words.includes('email') || words.includes('mail')) return scan.pick(scan.emails, cues)?.value
  if (has(PHONE_CUES)) return scan.pick(scan.phones, cues)?.value
  if (p.format === 'date' || p.format === 'date-time' || p.format === 'time' || has(DATE_CUES)) {
    const c = scan.pick(scan.dates, cues, (d) => dateValue(d.value, p.format) !== null)
    return c ? dateValue(c.value, p.format) : undefined
  }
  const pattern = safeRegExp(p.pattern)
  if (pattern) {
    const tokens = [...scan.text.matchAll(/[^\s,;!?()"']+/g)].flatMap((m) => {
      const raw = m[0].replace(/[.:]+$/, '')
      return [{ start: m.index!, end: m.index! + raw.length, value: raw }, ...(raw.startsWith('#') ? [{ start: m.index!, end: m.index! + raw.length, value: raw.slice(1) }] : [])]
    })
    return scan.pick(tokens, cues, (c) => pattern.test(c.value as string))?.value
  }
  if (has(ID_CUES)) return scan.pick(scan.ids, cues)?.value
  if (has(TEXT_CUES)) {
    const t = scan.text.trim()
    return p.maxLength !== undefined ? t.slice(0, p.maxLength) : t
  }
  // "<name> is X", "<name>: X", "<name> X": the argument named in the message, its value right after.
  const named = words.map((w) => w.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('[\\s_-]*')
  const m = new RegExp(`(?<![\\p{L}\\p{N}])${named}\\s*(?:is|are|=|:|of)?\\s*["']?([\\p{L}\\p{N}][\\p{L}\\p{N}_.@-]*)`, 'iu').exec(scan.text)
  return m ? m[1].replace(/\.$/, '') : undefined
}

/**
 * Arguments for `parameters` (a tool's JSON Schema) from `text`. A message that is a JSON object gives
 * its properties by name first. The result is checked against the schema: a value that does not fit an
 * optional argument is dropped; if a required one does not fit, it counts as missing.
 */
export function extractArguments(parameters: Record<string, unknown>, text: string, opts: ExtractOptions): Extraction {
  const props = (parameters.properties ?? {}) as Record<string, Prop>
  const required = Array.isArray(parameters.required) ? (parameters.required as string[]) : []
  const json = jsonObject(text)
  const scan = scanOf(text, opts)
  const args: Record<string, unknown> = {}
  const order = [...required.filter((n) => n in props), ...Object.keys(props).filter((n) => !required.includes(n))]
  for (const name of order) {
    const value = json && name in json ? json[name] : extractOne(name, props[name] ?? {}, scan)
    if (value !== undefined) args[name] = value
  }
  let check = validateArguments(parameters, args)
  if (!check.ok) {
    for (const e of check.errors) {
      const top = e.pointer.split('/')[1]
      if (top && !required.includes(top)) delete args[top]
    }
    check = validateArguments(parameters, args)
  }
  const spans = scan.used.map((c) => ({ start: c.start, end: c.end }))
  if (!check.ok) {
    const bad = new Set(check.errors.map((e) => e.pointer.split('/')[1]))
    return { args, missing: required.filter((n) => !(n in args) || bad.has(n)), spans }
  }
  return { args: check.value, missing: required.filter((n) => !(n in check.value)), spans }
}
