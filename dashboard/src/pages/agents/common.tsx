import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Field, ProblemView, type Tone } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { SubNav } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'
import { statusLabel, t } from '../../i18n/index.js'

export type Agent = components['schemas']['Agent']
export type AgentRun = components['schemas']['AgentRun']
export type RunSummary = components['schemas']['AgentRunSummary']
export type Approval = components['schemas']['AgentApproval']
export type RunStatus = components['schemas']['AgentRunStatus']

const TONE: Record<string, Tone> = {
  active: 'good',
  disabled: 'neutral',
  queued: 'neutral',
  running: 'info',
  requires_approval: 'warn',
  pending: 'warn',
  succeeded: 'good',
  approved: 'good',
  completed: 'good',
  started: 'info',
  failed: 'bad',
  rejected: 'bad',
  cancelled: 'neutral',
  expired: 'bad',
}
export function StatusBadge({ status }: { status: string }) {
  return <Badge tone={TONE[status] ?? 'neutral'}>{statusLabel(status)}</Badge>
}

export const isActive = (s: string) => s === 'queued' || s === 'running'

/** The sub-navigation of one agent: its runs, its approvals and its settings. */
export function AgentNav({ id }: { id: string }) {
  return (
    <SubNav
      label={t('agents.agent.agent')}
      links={[
        { href: `/dashboard/agents/${id}`, label: t('agents.agent.runs') },
        { href: `/dashboard/agents/${id}/approvals`, label: t('agents.agents.approvals') },
        { href: `/dashboard/agents/${id}/edit`, label: t('agents.common.settings') },
      ]}
    />
  )
}

export const json = (v: unknown) => JSON.stringify(v, null, 2)

export interface LocalError {
  pointer: string
  detail: string
}
/** A JSON field as typed: empty is undefined; text that does not parse is reported (nothing is sent). */
export function parseJson(text: string, pointer: string, errors: LocalError[]): unknown {
  if (!text.trim()) return undefined
  try {
    return JSON.parse(text)
  } catch (e) {
    errors.push({ pointer, detail: t('agents.common.isNotValidJsonValue', { value: e instanceof Error ? e.message : String(e) }) })
    return undefined
  }
}

/** Mistakes found before sending (JSON that does not parse), worded like the API's field errors. */
export function LocalErrors({ errors }: { errors: LocalError[] }) {
  if (errors.length === 0) return null
  return (
    <div class="state problem" role="alert">
      <p class="problem-detail">
        <strong>{t('agents.common.notSent')}</strong>
        {t('agents.common.fixTheseFirst')}
      </p>
      <ul class="problem-errors">
        {errors.map((e) => (
          <li>
            <code>{e.pointer}</code> {e.detail}
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * Approve or reject a pending approval, with an optional comment (kept with the decision). Before approving,
 * the reviewer may edit the call's arguments: they must parse as a JSON object here, then the API checks them
 * against the tool's parameters. Unchanged arguments are not sent, so the call goes as the agent asked.
 */
export function DecisionForm({ agentId, approval, onDecided }: { agentId: string; approval: Approval; onDecided: (run: AgentRun, decision: 'approve' | 'reject') => void }) {
  const { api } = useWorkspace()
  const [comment, setComment] = useState('')
  const original = json(approval.arguments)
  const [args, setArgs] = useState(original)
  const [local, setLocal] = useState<LocalError[]>([])
  const decide = useAction(async (decision: 'approve' | 'reject') => {
    const errors: LocalError[] = []
    const edited = decision === 'approve' && args.trim() !== original.trim() ? parseJson(args, '/arguments', errors) : undefined
    if (edited !== undefined && (typeof edited !== 'object' || edited === null || Array.isArray(edited))) errors.push({ pointer: '/arguments', detail: t('agents.agent.mustBeAJsonObject') })
    setLocal(errors)
    if (errors.length) return
    const run = await ok(
      api.client.POST('/agents/{id}/runs/{run_id}/approve', {
        params: { path: { id: agentId, run_id: approval.run_id } },
        body: { decision, ...(comment.trim() ? { comment: comment.trim() } : {}), ...(edited !== undefined ? { arguments: edited as Record<string, unknown> } : {}) },
      }),
    )
    onDecided(run, decision)
  })
  return (
    <form onSubmit={(e) => e.preventDefault()} aria-label={t('agents.common.decideOnTool', { tool: approval.tool })}>
      <Field label={t('agents.common.argumentsJson')} hint={t('agents.common.editThemToApproveThe')}>
        {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={args} onInput={(e) => setArgs(e.currentTarget.value)} />}
      </Field>
      <Field label={t('agents.common.commentOptional')} hint={t('agents.common.keptWithTheDecisionA')}>
        {(id, hint) => <textarea id={id} aria-describedby={hint} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />}
      </Field>
      <LocalErrors errors={local} />
      {decide.error && <ProblemView problem={decide.error} />}
      <div class="form-actions">
        <button type="button" class="primary" disabled={decide.pending} onClick={() => void decide.run('approve')}>
          {t('agents.common.approve')}
        </button>
        <button type="button" class="danger" disabled={decide.pending} onClick={() => void decide.run('reject')}>
          {t('agents.common.reject')}
        </button>
      </div>
    </form>
  )
}
