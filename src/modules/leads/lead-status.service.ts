import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Principal } from '../../kernel/tenant.js'
import { record } from './lead-activities.service.js'
import { qualify, type QualifyMessage } from './lead-qualify.js'
import { canMove, TRANSITIONS } from './lead-status.js'
import { customerMessages, leadOr404 } from './leads-crud.service.js'
import * as repo from './leads.repository.js'
import type { LeadT, QualifyLeadBodyT } from './leads.schemas.js'
import type { LeadsTable, LeadStatus } from './leads.tables.js'
import { leadView } from './leads.views.js'

/** Status changes (the machine, each recorded as an activity) and BANT qualification. */
export class LeadStatusService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  async change(principal: Principal, id: string, to: LeadStatus, reason: string | null): Promise<LeadT> {
    const lead = await leadOr404(this.k.db, principal, id)
    return this.k.transaction(principal, async (tx) => {
      const moved = await this.move(tx, principal, lead, to, reason)
      if (!moved) throw transitionError(lead.status, to)
      return moved
    })
  }

  /** Evaluates BANT on the lead's conversation and the answers given; with `apply`, moves to the recommendation when the machine allows it. */
  async qualify(principal: Principal, id: string, body: QualifyLeadBodyT): Promise<LeadT> {
    const lead = await leadOr404(this.k.db, principal, id)
    const messages: QualifyMessage[] = []
    if (lead.source === 'conversation' && lead.source_id) {
      for (const m of await customerMessages(this.services, principal, lead.source_id).catch(() => [])) messages.push({ ...m, conversation_id: lead.source_id })
    }
    const now = iso(this.k.clock.now())
    const result = qualify(lead, messages, body, now)
    return this.k.transaction(principal, async (tx) => {
      const apply = body.apply === true && result.recommended_status !== lead.status && canMove(lead.status, result.recommended_status)
      const q = { ...result, applied: apply }
      const patch = { qualification: toJson(q), updated_at: now }
      await repo.updateLead(tx, principal, id, patch)
      const met = q.criteria.filter((c) => c.met).map((c) => c.name)
      await record(this.k, tx, principal, id, 'qualification', {
        subject: `BANT ${q.score}/100: ${met.length > 0 ? met.join(', ') : 'no criterion met'}`,
        data: { score: q.score, met, recommended_status: q.recommended_status, applied: apply },
        actor: principal.keyId,
      })
      let view = leadView({ ...lead, ...patch })
      await this.k.events.emit(tx, principal, 'lead.qualified', view)
      if (apply) view = (await this.move(tx, principal, { ...lead, ...patch }, q.recommended_status, `BANT qualification: ${q.score}/100`))!
      return view
    })
  }

  /** In the caller's transaction: the guarded move, its activity and event; null when it is not allowed or lost a race. */
  private async move(tx: Parameters<typeof repo.updateLead>[0], principal: Principal, lead: LeadsTable, to: LeadStatus, reason: string | null): Promise<LeadT | null> {
    if (!canMove(lead.status, to)) return null
    const now = iso(this.k.clock.now())
    if (!(await repo.moveStatus(tx, principal, lead.id, lead.status, { status: to, updated_at: now }))) return null
    await record(this.k, tx, principal, lead.id, 'status_change', { subject: `${lead.status} → ${to}`, body: reason, data: { from: lead.status, to, reason }, actor: principal.keyId })
    const view = leadView({ ...lead, status: to, updated_at: now })
    await this.k.events.emit(tx, principal, 'lead.status_changed', view)
    return view
  }
}

const transitionError = (from: LeadStatus, to: LeadStatus) =>
  new AppError(
    'invalid_lead_transition',
    from === to ? `The lead is already ${to}.` : `A lead cannot move from ${from} to ${to}; from ${from} it can move to ${TRANSITIONS[from].join(', ') || 'nothing (final)'}.`,
  )
