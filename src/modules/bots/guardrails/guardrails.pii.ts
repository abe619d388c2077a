import { detectPii, isPhoneRegion, type PiiType } from '../../../kernel/pii/pii.js'
import type { BotGuardrailsT } from './guardrails.schemas.js'
import { replaceSpans } from './guardrails.text.js'

// Personal data in a bot's reply is found by the kernel's detector (src/kernel/pii: e-mails by linkifyjs,
// payment cards by card-validator, phones by libphonenumber-js for each configured region plus international
// "+…" numbers) and masked in place with the bots' own lower-case labels.

export type PiiKind = 'email' | 'card' | 'phone'

export const PII_MASK: Record<PiiKind, string> = { email: '[email]', card: '[card]', phone: '[phone]' }

export { isPhoneRegion }

const KIND: Partial<Record<PiiType, PiiKind>> = { email: 'email', card_number: 'card', phone: 'phone' }

/** The reply with the configured kinds of personal data masked, and how many of each were found. */
export function maskPii(text: string, cfg: BotGuardrailsT['pii_masking']): { text: string; counts: Record<PiiKind, number> } {
  const counts: Record<PiiKind, number> = { email: 0, card: 0, phone: 0 }
  if (!/\d|@/.test(text)) return { text, counts }
  const types: PiiType[] = []
  if (cfg.emails && text.includes('@')) types.push('email')
  if (cfg.card_numbers) types.push('card_number')
  if (cfg.phone_numbers) types.push('phone')
  if (types.length === 0) return { text, counts }
  const found = detectPii(text, { types, region: cfg.phone_regions })
  if (found.length === 0) return { text, counts }
  const masked = replaceSpans(text, found, (e) => {
    const kind = KIND[e.type]!
    counts[kind]++
    return PII_MASK[kind]
  })
  return { text: masked, counts }
}
