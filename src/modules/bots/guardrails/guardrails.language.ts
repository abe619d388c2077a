import { francAll } from 'franc'
import { data } from 'franc/data.js'
import { expressions } from 'franc/expressions.js'
import { iso6393To1 } from 'iso-639-3/iso6393-to-1.js'

// Language of a reply, by franc (trigram profiles of the UDHR in 187 languages; a script that only one
// language uses decides alone). franc speaks ISO 639-3; the API speaks ISO 639-1 like the rest of the
// service (knowledge bases, workspaces), so codes are mapped with the iso-639-3 tables, individual
// languages franc reports folded into their macrolanguage's two-letter code (Mandarin → zh, Standard
// Arabic → ar …). Languages without a two-letter code (Scots, Low German …) are left out of the
// comparison: with them, plain English is often a near tie with Scots.

const MACROLANGUAGE: Record<string, string> = {
  cmn: 'zh',
  arb: 'ar',
  pes: 'fa',
  prs: 'fa',
  swh: 'sw',
  zlm: 'ms',
  uzn: 'uz',
  azj: 'az',
  ekk: 'et',
  lvs: 'lv',
  khk: 'mn',
  ydd: 'yi',
  npi: 'ne',
  als: 'sq',
  pbu: 'ps',
  plt: 'mg',
  ayr: 'ay',
  quy: 'qu',
  quz: 'qu',
  ckb: 'ku',
}

const francCodes = new Set<string>([...Object.values(data).flatMap((langs) => Object.keys(langs)), ...Object.keys(expressions).filter((k) => /^[a-z]{3}$/.test(k))])
const toIso1 = new Map<string, string>()
for (const code of francCodes) {
  const two = MACROLANGUAGE[code] ?? iso6393To1[code]
  if (two) toIso1.set(code, two)
}
const ONLY = [...toIso1.keys()]

/** ISO 639-1 codes the detector can tell: the values `allowed_languages` accepts. */
export const DETECTABLE_LANGUAGES: ReadonlySet<string> = new Set(toIso1.values())

/**
 * Fewer letters than this and the reply is not judged: trigram statistics on a greeting or a one-line
 * answer ("Yes, 14 days.") are noise, and a wrong verdict would replace a good reply and hand off.
 */
export const MIN_LETTERS = 50
/** An allowed language scoring at least this (the winner scores 1) counts as a tie: the reply passes. */
export const TIE_SCORE = 0.9
const SAMPLE = 2000

// Masks, addresses and numbers are not language: leave them out of the sample.
const NOT_LANGUAGE = /\[[a-z]+\]|\bhttps?:\/\/\S+|(?<!\S)\S*@\S*|[\p{N}*_#]+/gu

export interface LanguageVerdict {
  /** ISO 639-1 code of the detected language; null when the text is too short or no language won. */
  language: string | null
  /** True when the text is judged to be in none of the allowed languages. */
  disallowed: boolean
}

export function judgeLanguage(text: string, allowed: readonly string[], hint?: string | null): LanguageVerdict {
  const sample = text.slice(0, SAMPLE).replace(NOT_LANGUAGE, ' ')
  const letters = sample.match(/\p{L}/gu)?.length ?? 0
  if (letters < MIN_LETTERS) {
    // Too short to judge: trust what the caller knows about the reply, if anything.
    return hint ? { language: hint, disallowed: !allowed.includes(hint) } : { language: null, disallowed: false }
  }
  const ranked = francAll(sample, { only: ONLY, minLength: 1 })
  const top = toIso1.get(ranked[0][0])
  if (!top) return { language: null, disallowed: false }
  if (allowed.includes(top)) return { language: top, disallowed: false }
  const bestAllowed = Math.max(0, ...ranked.filter(([code]) => allowed.includes(toIso1.get(code) ?? '')).map(([, score]) => score))
  return { language: top, disallowed: bestAllowed < TIE_SCORE }
}
