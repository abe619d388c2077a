import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Field, ProblemView, type Tone } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { SubNav } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'

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
  return <Badge tone={TONE[status] ?? 'neutral'}>{status.replace('_', ' ')}</Badge>
}

export const isActive = (s: string) => s === 'queued' || s === 'running'

/** The sub-navigation of one agent: its runs and its approvals. */
export function AgentNav({ id }: { id: string }) {
  return (
    <SubNav
      label="Agent"
      links={[
        { href: `/dashboard/agents/${id}`, label: 'Runs' },
        { href: `/dashboard/agents/${id}/approvals`, label: 'Approvals' },
      ]}
    />
  )
}


export const json = (v: unknown) => JSON.stringify(v, null, 2)

/** Approve or reject a pending approval, with an optional comment (kept with the decision). */
export function DecisionForm({ agentId, approval, onDecided }: { agentId: string; approval: Approval; onDecided: (run: AgentRun, decision: 'approve' | 'reject') => void }) {
  const { api } = useWorkspace()
  const [comment, setComment] = useState('')
  const decide = useAction(async (decision: 'approve' | 'reject') => {
    const run = await ok(
      api.client.POST('/agents/{id}/runs/{run_id}/approve', {
        params: { path: { id: agentId, run_id: approval.run_id } },
        body: { decision, ...(comment.trim() ? { comment: comment.trim() } : {}) },
      }),
    )
    onDecided(run, decision)
  })
  return (
    <form onSubmit={(e) => e.preventDefault()} aria-label={`Decide on ${approval.tool}`}>
      <Field label="Comment (optional)" hint="Kept with the decision; a rejected call's comment tells the agent why.">
        {(id, hint) => <textarea id={id} aria-describedby={hint} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />}
      </Field>
      {decide.error && <ProblemView problem={decide.error} />}
      <div class="form-actions">
        <button type="button" class="primary" disabled={decide.pending} onClick={() => void decide.run('approve')}>
          Approve
        </button>
        <button type="button" class="danger" disabled={decide.pending} onClick={() => void decide.run('reject')}>
          Reject
        </button>
      </div>
    </form>
  )
}
