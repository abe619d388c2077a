import type { LeadScoreT } from './inbox.schemas.js'

/**
 * The explainable lead scorer: a sum of named signals, capped at 100. Each factor says what was seen
 * and what it added, so a person can check the number. Topics are remembered on the conversation
 * (lead_signals) so a new message needs no re-read of the history.
 */
const TOPICS = [
  { key: 'pricing', points: 25, reason: 'asked about pricing', pattern: /\b(price[sd]?|pricing|cost[s]?|quote|how much|plans?|subscriptions?|per (month|year|seat))\b/i },
  { key: 'purchase', points: 20, reason: 'said they want to buy or upgrade', pattern: /\b(buy|purchase|order|sign(ing)? up|upgrade|contract|invoice me)\b/i },
  { key: 'demo', points: 15, reason: 'asked for a demo or a trial', pattern: /\b(demo|trial|walkthrough|call with (sales|you))\b/i },
  { key: 'urgency', points: 10, reason: 'said it is urgent', pattern: /\b(asap|urgent(ly)?|today|this week|right away)\b/i },
] as const

const EMAIL_POINTS = 20
const PHONE_POINTS = 10
const PER_INBOUND = 3
const MAX_INBOUND_POINTS = 15

export interface LeadSignals {
  hasEmail: boolean
  hasPhone: boolean
  inboundCount: number
  topics: string[]
}

/** Topics of one inbound message (keys of TOPICS). */
export function detectTopics(text: string): string[] {
  return TOPICS.filter((t) => t.pattern.test(text)).map((t) => t.key)
}

export function scoreLead(s: LeadSignals): LeadScoreT {
  const factors: string[] = []
  let score = 0
  const add = (points: number, reason: string) => {
    score += points
    factors.push(`+${points} ${reason}`)
  }
  if (s.hasEmail) add(EMAIL_POINTS, 'contact gave an email address')
  if (s.hasPhone) add(PHONE_POINTS, 'contact gave a phone number')
  for (const t of TOPICS) if (s.topics.includes(t.key)) add(t.points, t.reason)
  if (s.inboundCount > 0) {
    const n = s.inboundCount
    add(Math.min(MAX_INBOUND_POINTS, n * PER_INBOUND), `${n} inbound message${n === 1 ? '' : 's'} (${PER_INBOUND} each, at most ${MAX_INBOUND_POINTS})`)
  }
  return { score: Math.min(100, score), factors }
}

/** A manual override: a plain number (pre-2.4.0 form) or the object; the factors say it was manual. */
export function manualLeadScore(input: number | LeadScoreT): LeadScoreT {
  if (typeof input === 'number') return { score: input, factors: ['set manually'] }
  return { score: input.score, factors: input.factors.length > 0 ? input.factors : ['set manually'] }
}
