import { AppError, type FieldError } from '../../../kernel/errors.js'
import { DETECTABLE_LANGUAGES } from './guardrails.language.js'
import { contactKey, isPhoneRegion } from './guardrails.pii.js'
import type { BotGuardrailsT, UpdateBotGuardrailsBodyT } from './guardrails.schemas.js'
import { charLength, hasWordChar, phraseKey } from './guardrails.text.js'

// PATCH semantics: a field sent replaces the stored one (lists as a whole; pii_masking field by field).
// The schema bounds sizes and shapes; this checks what it cannot: blank or duplicate entries (judged
// case- and accent-insensitively, as they are matched), codes the detectors do not know, and messages
// longer than the reply length limit. Blocked terms are literal text, never patterns, so nothing
// configured can make matching backtrack.

const POINTER = '/body'
const tidy = (s: string) => s.trim().replace(/\s+/g, ' ')

function phrases(list: string[], pointer: string, what: string, errors: FieldError[]): string[] {
  const seen = new Map<string, number>()
  return list.map((raw, i) => {
    const value = tidy(raw)
    const key = phraseKey(value)
    if (!value) errors.push({ pointer: `${pointer}/${i}`, detail: `${what} must not be blank` })
    else if (!hasWordChar(value)) errors.push({ pointer: `${pointer}/${i}`, detail: `${what} must contain a letter or a digit` })
    else if (seen.has(key)) errors.push({ pointer: `${pointer}/${i}`, detail: `duplicates entry ${seen.get(key)} (matching ignores case and accents)` })
    else seen.set(key, i)
    return value
  })
}

function codes(list: string[], pointer: string, known: (c: string) => boolean, what: string, errors: FieldError[]): string[] {
  const seen = new Map<string, number>()
  list.forEach((code, i) => {
    if (!known(code)) errors.push({ pointer: `${pointer}/${i}`, detail: `'${code}' is not ${what}` })
    else if (seen.has(code)) errors.push({ pointer: `${pointer}/${i}`, detail: `duplicates entry ${seen.get(code)}` })
    else seen.set(code, i)
  })
  return list
}

/** Each entry one whole phone number, e-mail address or URL as the masking reads it; no value twice. */
function contacts(list: string[], regions: string[], pointer: string, errors: FieldError[]): string[] {
  const seen = new Map<string, number>()
  return list.map((raw, i) => {
    const value = tidy(raw)
    const key = contactKey(value, regions)
    if (!key) errors.push({ pointer: `${pointer}/${i}`, detail: 'must be one phone number (international, or national in one of phone_regions), e-mail address or URL' })
    else if (seen.has(key)) errors.push({ pointer: `${pointer}/${i}`, detail: `duplicates entry ${seen.get(key)} (the same contact written another way)` })
    else seen.set(key, i)
    return value
  })
}

function message(value: string, pointer: string, errors: FieldError[]): string {
  const v = value.trim()
  if (!v) errors.push({ pointer, detail: 'must not be blank' })
  return v
}

export function mergeGuardrails(current: BotGuardrailsT, patch: UpdateBotGuardrailsBodyT): BotGuardrailsT {
  const errors: FieldError[] = []
  const next: BotGuardrailsT = { ...current, pii_masking: { ...current.pii_masking } }

  if (patch.blocked_topics !== undefined) {
    const seenNames = new Map<string, number>()
    next.blocked_topics = patch.blocked_topics.map((t, i) => {
      const name = tidy(t.name)
      const key = phraseKey(name)
      if (!name) errors.push({ pointer: `${POINTER}/blocked_topics/${i}/name`, detail: 'must not be blank' })
      else if (seenNames.has(key)) errors.push({ pointer: `${POINTER}/blocked_topics/${i}/name`, detail: `duplicates the name of topic ${seenNames.get(key)}` })
      else seenNames.set(key, i)
      return { name, keywords: phrases(t.keywords, `${POINTER}/blocked_topics/${i}/keywords`, 'a keyword', errors) }
    })
  }
  if (patch.blocked_terms !== undefined) next.blocked_terms = phrases(patch.blocked_terms, `${POINTER}/blocked_terms`, 'a blocked term', errors)
  if (patch.blocked_reply !== undefined) next.blocked_reply = message(patch.blocked_reply, `${POINTER}/blocked_reply`, errors)
  if (patch.fallback_message !== undefined) next.fallback_message = message(patch.fallback_message, `${POINTER}/fallback_message`, errors)
  if (patch.prompt_injection !== undefined) next.prompt_injection = patch.prompt_injection
  if (patch.profanity_filter !== undefined) next.profanity_filter = patch.profanity_filter
  if (patch.answer_only_when_grounded !== undefined) next.answer_only_when_grounded = patch.answer_only_when_grounded
  if (patch.max_reply_length !== undefined) next.max_reply_length = patch.max_reply_length
  if (patch.allowed_languages !== undefined) {
    const known = (c: string) => DETECTABLE_LANGUAGES.has(c)
    next.allowed_languages = codes(patch.allowed_languages, `${POINTER}/allowed_languages`, known, 'an ISO 639-1 code the language detector knows', errors)
  }
  const pii = patch.pii_masking
  if (pii) {
    if (pii.emails !== undefined) next.pii_masking.emails = pii.emails
    if (pii.phone_numbers !== undefined) next.pii_masking.phone_numbers = pii.phone_numbers
    if (pii.card_numbers !== undefined) next.pii_masking.card_numbers = pii.card_numbers
    if (pii.phone_regions !== undefined) {
      next.pii_masking.phone_regions = codes(pii.phone_regions, `${POINTER}/pii_masking/phone_regions`, isPhoneRegion, 'a region with phone number metadata (ISO 3166-1 alpha-2)', errors)
    }
    if (pii.allowed_contacts !== undefined) {
      next.pii_masking.allowed_contacts = contacts(pii.allowed_contacts, next.pii_masking.phone_regions, `${POINTER}/pii_masking/allowed_contacts`, errors)
    }
  }

  // The messages are sent as they are: a limit below them could never be honoured. The error points at
  // what this patch changed: the limit if it was sent, else the message that no longer fits.
  const tooLong = (['blocked_reply', 'fallback_message'] as const)
    .map((field) => ({ field, length: charLength(next[field]) }))
    .filter((m) => m.length > next.max_reply_length)
    .sort((a, b) => b.length - a.length)
  if (tooLong.length && (patch.max_reply_length !== undefined || tooLong.some((m) => patch[m.field] === undefined))) {
    errors.push({ pointer: `${POINTER}/max_reply_length`, detail: `must be at least ${tooLong[0].length}, the length of ${tooLong[0].field}` })
  } else {
    for (const m of tooLong) errors.push({ pointer: `${POINTER}/${m.field}`, detail: `is ${m.length} characters, longer than max_reply_length (${next.max_reply_length})` })
  }

  if (errors.length) {
    throw new AppError('validation_failed', errors.map((e) => `${e.pointer} ${e.detail}`).join('; '), { errors })
  }
  return next
}
