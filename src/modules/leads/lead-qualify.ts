import * as chrono from 'chrono-node'
import { BUDGET, TIMELINE } from './lead-score.js'
import type { QualificationT, QualifyLeadBodyT } from './leads.schemas.js'
import type { LeadsTable, LeadStatus } from './leads.tables.js'

/**
 * BANT from what the customer wrote: each criterion is met when a message (or an answer given with the
 * request, or the lead's own title for authority) shows it, and the evidence points at that message.
 * Deterministic rules, documented in docs/leads.md; 25 points per criterion met.
 */
const RULES = {
  budget: (t: string) => BUDGET.test(t) || /\b(afford|price range|spend|spending|cost us)\b/i.test(t),
  authority: (t: string) =>
    /\b(i(?:'m| am) (?:the )?(?:ceo|cto|cfo|coo|founder|co-founder|owner|director|head of|vp|vice president|manager|in charge)|i (?:decide|make the decision|sign off|approve)|my team|our team|decision maker)\b/i.test(
      t,
    ),
  need: (t: string) => /\b(we need|i need|need to|looking for|we want|i want|struggl\w*|problem|pain|require[sd]?|must have|replace our|migrate from)\b/i.test(t),
  timeline: (t: string) => TIMELINE.test(t) || chrono.parse(t).some((r) => r.start.isCertain('day') || r.start.isCertain('month')),
} as const
type Name = keyof typeof RULES
const NAMES: Name[] = ['budget', 'authority', 'need', 'timeline']
const SENIOR_TITLE = /\b(ceo|cto|cfo|coo|chief|founder|owner|president|vp|vice president|head|director)\b/i

export interface QualifyMessage {
  id: string
  conversation_id: string
  content: string
}

export function qualify(lead: LeadsTable, messages: QualifyMessage[], body: QualifyLeadBodyT, now: string): QualificationT {
  const criteria = NAMES.map((name) => {
    const evidence: QualificationT['criteria'][number]['evidence'] = []
    const answer = body.answers?.[name]
    if (answer) evidence.push({ source: 'answer', message_id: null, conversation_id: null, excerpt: answer.slice(0, 300) })
    for (const m of messages) {
      if (evidence.length >= 3) break
      if (RULES[name](m.content)) evidence.push({ source: 'message', message_id: m.id, conversation_id: m.conversation_id, excerpt: m.content.slice(0, 300) })
    }
    if (name === 'authority' && lead.title && SENIOR_TITLE.test(lead.title)) evidence.push({ source: 'lead', message_id: null, conversation_id: null, excerpt: `title: ${lead.title}` })
    return { name, met: evidence.length > 0, evidence }
  })
  const met = criteria.filter((c) => c.met).length
  return { framework: 'BANT', criteria, score: met * 25, recommended_status: recommend(met, messages.length > 0 || !!body.answers), applied: false, evaluated_at: now }
}

/** 3–4 criteria: qualified; 2: contacted (worth a conversation); fewer, with something to judge: unqualified. */
function recommend(met: number, evidence: boolean): LeadStatus {
  if (met >= 3) return 'qualified'
  if (met === 2) return 'contacted'
  return evidence ? 'unqualified' : 'new'
}
