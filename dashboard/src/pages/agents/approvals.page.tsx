import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Empty, Notice, Page, PagedList, Time } from '../../ui/components.js'
import { usePaged, useResource, usePoll } from '../../ui/hooks.js'
import { useLiveRows } from '../../ui/live-lists.js'
import { LiveState } from '../../ui/live-state.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { AgentRun, Approval } from './common.js'
import { AgentNav, DecisionForm, StatusBadge, isActive, json } from './common.js'
import { t } from '../../i18n/index.js'

type Filter = components['schemas']['AgentApprovalStatus'] | ''

/** After a decision: follows the run until it leaves running, and says how it ended. */
function FollowRun({ agentId, initial }: { agentId: string; initial: AgentRun }) {
  const { api } = useWorkspace()
  const [run, setRun] = useState(initial)
  usePoll(isActive(run.status), async () => setRun(await ok(api.client.GET('/agents/{id}/runs/{run_id}', { params: { path: { id: agentId, run_id: run.id } } }))), 1000)
  return (
    <Notice tone={run.status === 'failed' ? 'bad' : isActive(run.status) ? 'info' : 'good'}>
      {t('agents.agent.run')} <a href={`/dashboard/agents/${agentId}/runs/${run.id}`}>{run.id}</a>: <StatusBadge status={run.status} />
      {isActive(run.status) ? t('agents.approvals.continuing') : run.output ? ` — ${run.output.text}` : ''}
    </Notice>
  )
}

/** /dashboard/agents/:id/approvals: tool calls waiting for a person (and past decisions), approve or reject. */
export default function Approvals() {
  const { id } = useRoute().params as { id: string }
  const agent = useResource((a) => ok(a.client.GET('/agents/{id}', { params: { path: { id } } })), [id])
  const [status, setStatus] = useState<Filter>('pending')
  const list = usePaged<Approval>((a, cursor) => ok(a.client.GET('/agents/{id}/approvals', { params: { path: { id }, query: { cursor, ...(status ? { status } : {}) } } })), [id, status])
  const [followed, setFollowed] = useState<AgentRun[]>([])
  // Live: approvals asked for and decided (here, by someone else, or expired) come and go as they happen.
  useLiveRows(
    list,
    ['agent_approval.*'],
    (e) => ((e.data.object as unknown as Approval).agent_id === id ? (e.data.object as unknown as Approval) : undefined),
    (a) => !status || a.status === status,
  )
  return (
    <Page title={t('agents.approvals.approvalsValue', { value: agent.data ? ` · ${agent.data.name}` : '' })}>
      <AgentNav id={id} />
      <p class="live-line">
        <LiveState />
      </p>
      {followed.map((r) => (
        <FollowRun key={r.id} agentId={id} initial={r} />
      ))}
      <div class="filters">
        <div class="field">
          <label for="approval-status">{t('agents.agentForm.status')}</label>
          <select id="approval-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Filter)}>
            <option value="pending">{t('agents.approvals.pending')}</option>
            <option value="approved">{t('agents.approvals.approved')}</option>
            <option value="rejected">{t('agents.approvals.rejected')}</option>
            <option value="expired">{t('agents.approvals.expired')}</option>
            <option value="cancelled">{t('agents.approvals.cancelled')}</option>
            <option value="">{t('agents.agent.all')}</option>
          </select>
        </div>
      </div>
      <PagedList list={list} emptyView={<Empty title={status === 'pending' ? t('agents.approvals.nothingWaitsForADecision') : t('agents.approvals.noApprovals')} />}>
        {(rows) => (
          <ul class="approvals plain-list">
            {rows.map((a) => (
              <li class="panel" key={a.id}>
                <h2>
                  <code>{a.tool}</code> <StatusBadge status={a.status} />
                </h2>
                <p>{a.reason}</p>
                <dl class="facts">
                  <dt>{t('agents.agent.run')}</dt>
                  <dd>
                    <a href={`/dashboard/agents/${id}/runs/${a.run_id}`}>{a.run_id}</a>
                  </dd>
                  <dt>{t('agents.approvals.asked')}</dt>
                  <dd>
                    <Time iso={a.created_at} />
                  </dd>
                  <dt>{a.status === 'pending' ? t('agents.approvals.expires') : t('agents.approvals.decided')}</dt>
                  <dd>
                    <Time iso={a.status === 'pending' ? a.expires_at : a.decided_at} />
                  </dd>
                  {a.comment && (
                    <>
                      <dt>{t('agents.approvals.comment')}</dt>
                      <dd>{a.comment}</dd>
                    </>
                  )}
                </dl>
                {a.status !== 'pending' && (
                  <pre>
                    <code>{json(a.edited_arguments ?? a.arguments)}</code>
                  </pre>
                )}
                {a.edited_arguments && <p class="hint">{t('agents.approvals.approvedWithEditedArguments')}</p>}
                {a.status === 'pending' && (
                  <DecisionForm
                    agentId={id}
                    approval={a}
                    onDecided={(run) => {
                      setFollowed((xs) => [run, ...xs.filter((x) => x.id !== run.id)])
                      if (status === 'pending') list.setItems((xs) => xs.filter((x) => x.id !== a.id))
                      else list.reload()
                    }}
                  />
                )}
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </Page>
  )
}
