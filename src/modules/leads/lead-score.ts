/**
 * The lead's explainable score: the inbox's conversation score (its factors kept as they are) plus what
 * the lead itself tells — contact details, company, the seniority of the title, budget or timeline
 * mentioned, engagement recorded as activities. A sum of named signals capped at 100; each factor says
 * what was seen and what it added.
 */
export interface LeadScoreInput {
  email: string | null
  phone: string | null
  company: string | null
  title: string | null
  /** The source conversation's score, when the lead came from one. */
  conversation: { score: number; factors: string[] } | null
  /** Customer messages of its conversations (for budget and timeline). */
  messages: string[]
  /** Activities recorded by people (notes, calls, meetings, e-mails, tasks). */
  engagements: number
}

const SENIORITY = [
  { points: 15, reason: 'title is executive', pattern: /\b(ceo|cto|cfo|coo|cmo|cio|chief|founder|co-founder|owner|president|partner)\b/i },
  { points: 10, reason: 'title is a decision maker', pattern: /\b(vp|vice president|head|director|general manager)\b/i },
  { points: 5, reason: 'title is a manager', pattern: /\b(manager|lead|principal)\b/i },
] as const
export const BUDGET = /(?:[$€£¥]\s?\d[\d,.]*\s?(?:k|m)?\b|\b\d[\d,.]*\s?(?:k|m)?\s?(?:usd|eur|gbp|dollars|euros|pounds)\b|\bbudget\b)/i
export const TIMELINE =
  /\b(?:this|next) (?:week|month|quarter|year)\b|\bby (?:the end of |end of )?(?:january|february|march|april|may|june|july|august|september|october|november|december|q[1-4]|monday|tuesday|wednesday|thursday|friday|\d{1,2}[/.-]\d{1,2})\b|\bwithin \d+ (?:days|weeks|months)\b|\b(?:asap|deadline|go[- ]live|launch date)\b/i

export function scoreLead(s: LeadScoreInput): { score: number; factors: string[] } {
  const factors: string[] = []
  let score = 0
  const add = (points: number, reason: string) => {
    score += points
    factors.push(`+${points} ${reason}`)
  }
  if (s.conversation && s.conversation.score > 0) {
    score += s.conversation.score
    factors.push(...s.conversation.factors.map((f) => `${f} (conversation)`))
  } else {
    if (s.email) add(20, 'gave an email address')
    if (s.phone) add(10, 'gave a phone number')
  }
  if (s.company) add(10, `company given (${s.company})`)
  const seniority = s.title ? SENIORITY.find((x) => x.pattern.test(s.title!)) : undefined
  if (seniority) add(seniority.points, `${seniority.reason} (${s.title})`)
  if (s.messages.some((m) => BUDGET.test(m))) add(10, 'mentioned a budget or an amount')
  if (s.messages.some((m) => TIMELINE.test(m))) add(10, 'mentioned a timeline')
  if (s.engagements > 0) add(Math.min(15, s.engagements * 5), `${s.engagements} recorded engagement${s.engagements === 1 ? '' : 's'} (5 each, at most 15)`)
  return { score: Math.min(100, score), factors }
}
