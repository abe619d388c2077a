import { detectPii, isPhoneRegion, normalisePii, type PiiEntity, type PiiType } from '../../../kernel/pii/pii.js'
import type { BotGuardrailsT } from './guardrails.schemas.js'
import { replaceSpans } from './guardrails.text.js'

// Personal data in a bot's reply is found by the kernel's detector (src/kernel/pii: e-mails by linkifyjs,
// payment cards by card-validator, phones by libphonenumber-js for each configured region plus international
// "+…" numbers; the same detector, with the same region rules, as the compliance module's redaction) and
// masked in place with the bots' own lower-case labels. The business's own public contact details
// (`allowed_contacts`) are left alone: its phone number in a reply is the answer, not a leak.

export type PiiKind = 'email' | 'card' | 'phone'

export const PII_MASK: Record<PiiKind, string> = { email: '[email]', card: '[card]', phone: '[phone]' }

export { isPhoneRegion }

const KIND: Partial<Record<PiiType, PiiKind>> = { email: 'email', card_number: 'card', phone: 'phone' }

const CONTACT_TYPES: PiiType[] = ['email', 'url', 'phone']

/**
 * The one spelling of a contact an allow-list compares: "phone:+442079460018", "email:…", "url:…"; null
 * when the text is not exactly one phone number, e-mail address or URL.
 */
export function contactKey(text: string, regions: readonly string[]): string | null {
  const value = text.trim()
  const found = detectPii(value, { types: CONTACT_TYPES, region: regions })
  if (found.length !== 1 || found[0].start !== 0 || found[0].end !== value.length) return null
  return `${found[0].type}:${normalisePii(found[0].type, found[0].text, regions)}`
}

/** Whether a finding is one of the allowed contacts, or inside an allowed URL (or under one). */
function allowance(text: string, cfg: BotGuardrailsT['pii_masking']): ((e: PiiEntity) => boolean) | null {
  const allowed = cfg.allowed_contacts ?? []
  if (allowed.length === 0) return null
  const keys = new Set(allowed.map((c) => contactKey(c, cfg.phone_regions)).filter((k): k is string => !!k))
  const urls = [...keys].filter((k) => k.startsWith('url:')).map((k) => k.slice(4))
  const underAllowed = (href: string) => urls.some((u) => href === u || href.startsWith(u.endsWith('/') ? u : `${u}/`))
  const allowedUrls = urls.length ? detectPii(text, { types: ['url'] }).filter((u) => underAllowed(normalisePii('url', u.text))) : []
  return (e) => keys.has(`${e.type}:${normalisePii(e.type, e.text, cfg.phone_regions)}`) || allowedUrls.some((u) => e.start >= u.start && e.end <= u.end)
}

/** The reply with the configured kinds of personal data masked, and how many of each were found. */
export function maskPii(text: string, cfg: BotGuardrailsT['pii_masking']): { text: string; counts: Record<PiiKind, number> } {
  const counts: Record<PiiKind, number> = { email: 0, card: 0, phone: 0 }
  if (!/\d|@/.test(text)) return { text, counts }
  const types: PiiType[] = []
  if (cfg.emails && text.includes('@')) types.push('email')
  if (cfg.card_numbers) types.push('card_number')
  if (cfg.phone_numbers) types.push('phone')
  if (types.length === 0) return { text, counts }
  let found = detectPii(text, { types, region: cfg.phone_regions })
  const allowed = found.length > 0 ? allowance(text, cfg) : null
  if (allowed) found = found.filter((e) => e.type === 'card_number' || !allowed(e))
  if (found.length === 0) return { text, counts }
  const masked = replaceSpans(text, found, (e) => {
    const kind = KIND[e.type]!
    counts[kind]++
    return PII_MASK[kind]
  })
  return { text: masked, counts }
}
