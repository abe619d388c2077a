import { findInjection } from './guardrails.injection.js'
import { judgeLanguage } from './guardrails.language.js'
import { maskPii, type PiiKind } from './guardrails.pii.js'
import { hasProfanity, maskProfanity } from './guardrails.profanity.js'
import type { BotGuardrailsT } from './guardrails.schemas.js'
import { fold, phraseMatcher, replaceSpans, truncate, type Folded } from './guardrails.text.js'

export { mergeGuardrails } from './guardrails.merge.js'

// Enforcement of a bot's guardrails on the customer's message (checkInput) and on the bot's reply
// (checkOutput). Pure functions: the caller records what fired on the reply and acts on `blocked`/`handoff`.
// The order of evaluation is part of the contract (docs/bots.md "Guardrails").

export interface GuardrailFired {
  guardrail: string
  stage: 'input' | 'output'
  action: 'blocked' | 'masked' | 'replaced' | 'truncated' | 'handoff' | 'flagged'
  detail: string
}

export const BLOCKED_MASK = '[blocked]'

function topicHits(cfg: BotGuardrailsT, folded: Folded) {
  const phrases: string[] = []
  const owners: number[] = []
  cfg.blocked_topics.forEach((t, i) => {
    for (const k of t.keywords) {
      phrases.push(k)
      owners.push(i)
    }
  })
  return phraseMatcher(phrases, owners)(folded)
}

const termHits = (cfg: BotGuardrailsT, folded: Folded) => phraseMatcher(cfg.blocked_terms)(folded)

const unique = (xs: number[]) => [...new Set(xs)]
const quoteList = (xs: string[]) => xs.map((x) => `"${x}"`).join(', ')
const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * The customer's message, in this order: prompt-injection patterns, blocked topics, blocked terms,
 * profanity. Every guardrail that matches is listed; the message is blocked when any blocking one did,
 * and `reply` is then the refusal to send instead of an answer.
 */
export function checkInput(cfg: BotGuardrailsT, text: string): { blocked: boolean; fired: GuardrailFired[]; reply: string | null } {
  const fired: GuardrailFired[] = []
  const folded = fold(text)
  if (cfg.prompt_injection !== 'off') {
    const hit = findInjection(folded.text)
    if (hit) {
      fired.push({
        guardrail: 'prompt_injection',
        stage: 'input',
        action: cfg.prompt_injection === 'block' ? 'blocked' : 'flagged',
        detail: `The message matches the prompt-injection pattern "${hit.id}" (${hit.description}).`,
      })
    }
  }
  const topics = unique(topicHits(cfg, folded).map((h) => h.owner))
  if (topics.length) {
    const names = topics.map((i) => cfg.blocked_topics[i].name)
    fired.push({ guardrail: 'blocked_topics', stage: 'input', action: 'blocked', detail: `The message is about the blocked topic ${quoteList(names)}.` })
  }
  const terms = unique(termHits(cfg, folded).map((h) => h.owner))
  if (terms.length) {
    const list = terms.map((i) => cfg.blocked_terms[i])
    fired.push({ guardrail: 'blocked_terms', stage: 'input', action: 'blocked', detail: `The message contains the blocked term ${quoteList(list)}.` })
  }
  if (cfg.profanity_filter && hasProfanity(text)) {
    fired.push({ guardrail: 'profanity_filter', stage: 'input', action: 'flagged', detail: 'The message contains profanity; it is answered as usual.' })
  }
  const blocked = fired.some((f) => f.action === 'blocked')
  return { blocked, fired, reply: blocked ? cfg.blocked_reply : null }
}

const PII_NAMES: Record<PiiKind, [string, string]> = {
  email: ['e-mail address', 'e-mail addresses'],
  phone: ['phone number', 'phone numbers'],
  card: ['payment card number', 'payment card numbers'],
}

/**
 * The bot's reply, in this order:
 * 1. answer_only_when_grounded — not grounded: the reply becomes fallback_message, hand-off; stop.
 * 2. blocked_topics — the reply is about one: it becomes blocked_reply; stop.
 * 3. blocked_terms — each occurrence masked as "[blocked]".
 * 4. profanity_filter — masked ("f***").
 * 5. pii_masking — e-mails, cards, phones masked as "[email]", "[card]", "[phone]".
 * 6. allowed_languages — in none of them: the reply becomes fallback_message, hand-off; stop.
 * 7. max_reply_length — truncated at a sentence or word boundary with "…".
 * The configured messages are not checked again: they are the administrator's own words, and their length
 * is validated against max_reply_length when they are saved.
 */
export function checkOutput(cfg: BotGuardrailsT, text: string, ctx: { grounded: boolean; language?: string | null }): { text: string; fired: GuardrailFired[]; handoff: boolean } {
  const fired: GuardrailFired[] = []
  const out = (guardrail: string, action: GuardrailFired['action'], detail: string) => fired.push({ guardrail, stage: 'output', action, detail })

  if (cfg.answer_only_when_grounded && !ctx.grounded) {
    out('answer_only_when_grounded', 'handoff', 'The reply does not rest on the knowledge base or a tool result: the fallback message was sent and the conversation handed off.')
    return { text: cfg.fallback_message, fired, handoff: true }
  }

  const folded = fold(text)
  const topics = unique(topicHits(cfg, folded).map((h) => h.owner))
  if (topics.length) {
    out('blocked_topics', 'replaced', `The reply touched the blocked topic ${quoteList(topics.map((i) => cfg.blocked_topics[i].name))}: the blocked reply was sent instead.`)
    return { text: cfg.blocked_reply, fired, handoff: false }
  }

  const masked = maskOutput(cfg, text, folded)
  text = masked.text
  fired.push(...masked.fired)

  if (cfg.allowed_languages.length) {
    const verdict = judgeLanguage(text, cfg.allowed_languages, ctx.language)
    if (verdict.disallowed) {
      out('allowed_languages', 'handoff', `The reply is in "${verdict.language}", not in ${quoteList(cfg.allowed_languages)}: the fallback message was sent and the conversation handed off.`)
      return { text: cfg.fallback_message, fired, handoff: true }
    }
  }

  const cut = truncate(text, cfg.max_reply_length)
  if (cut !== null) {
    out('max_reply_length', 'truncated', `The reply was cut to ${cfg.max_reply_length} characters.`)
    text = cut
  }
  return { text, fired, handoff: false }
}

/** Steps 3–5 of checkOutput: blocked terms, profanity and personal data masked in place (also each streamed piece's). */
export function maskOutput(cfg: BotGuardrailsT, text: string, folded: Folded = fold(text)): { text: string; fired: GuardrailFired[] } {
  const fired: GuardrailFired[] = []
  const out = (guardrail: string, detail: string) => fired.push({ guardrail, stage: 'output', action: 'masked', detail })
  const terms = termHits(cfg, folded)
  if (terms.length) {
    text = replaceSpans(text, terms, () => BLOCKED_MASK)
    out('blocked_terms', `Masked ${plural(terms.length, 'occurrence', 'occurrences')} of ${quoteList(unique(terms.map((h) => h.owner)).map((i) => cfg.blocked_terms[i]))}.`)
  }
  if (cfg.profanity_filter) {
    const p = maskProfanity(text)
    if (p.count) {
      text = p.text
      out('profanity_filter', `Masked ${plural(p.count, 'profane word', 'profane words')}.`)
    }
  }
  const pii = maskPii(text, cfg.pii_masking)
  const found = (Object.keys(pii.counts) as PiiKind[]).filter((k) => pii.counts[k] > 0)
  if (found.length) {
    text = pii.text
    out('pii_masking', `Masked ${found.map((k) => plural(pii.counts[k], ...PII_NAMES[k])).join(', ')}.`)
  }
  return { text, fired }
}

/** Whether the text touches one of the blocked topics (a streamed reply stops showing pieces then). */
export const touchesBlockedTopic = (cfg: BotGuardrailsT, text: string): boolean => cfg.blocked_topics.length > 0 && topicHits(cfg, fold(text)).length > 0

/** Where the blocked terms occur in `text` (a streamed part must not end inside one). */
export const blockedTermSpans = (cfg: BotGuardrailsT, text: string): { start: number; end: number }[] => (cfg.blocked_terms.length ? termHits(cfg, fold(text)) : [])
