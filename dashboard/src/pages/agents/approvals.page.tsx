import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Empty, Notice, Page, PagedList, Time } from '../../ui/components.js'
import { usePaged, useResource, usePoll } from '../../ui/hooks.js'
import { useLiveRows } from '../../ui/live.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { AgentRun, Approval } from './common.js'
import { AgentNav, DecisionForm, StatusBadge, isActive, json } from './common.js'

type Filter = components['schemas']['AgentApprovalStatus'] | ''

/** After a decision: follows the run until it leaves running, and says how it ended. */
function FollowRun({ agentId, initial }: { agentId: string; initial: AgentRun }) {
  const { api } = useWorkspace()
  const [run, setRun] = useState(initial)
  usePoll(isActive(run.status), async () => setRun(await ok(api.client.GET('/agents/{id}/runs/{run_id}', { params: { path: { id: agentId, run_id: run.id } } }))), 1000)
  return (
    <Notice tone={run.status === 'failed' ? 'bad' : isActive(run.status) ? 'info' : 'good'}>
      Run <a href={`/dashboard/agents/${agentId}/runs/${run.id}`}>{run.id}</a>: <StatusBadge status={run.status} />
      {isActive(run.status) ? ' — continuing…' : run.output ? ` — ${run.output.text}` : ''}
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
    <Page title={`Approvals${agent.data ? ` · ${agent.data.name}` : ''}`}>
      <AgentNav id={id} />
      {followed.map((r) => (
        <FollowRun key={r.id} agentId={id} initial={r} />
      ))}
      <div class="filters">
        <div class="field">
          <label for="approval-status">Status</label>
          <select id="approval-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as Filter)}>
            <option value="pending">Pending</option>
            <option value="approved">Approved</option>
            <option value="rejected">Rejected</option>
            <option value="expired">Expired</option>
            <option value="cancelled">Cancelled</option>
            <option value="">All</option>
          </select>
        </div>
      </div>
      <PagedList list={list} emptyView={<Empty title={status === 'pending' ? 'Nothing waits for a decision' : 'No approvals'} />}>
        {(rows) => (
          <ul class="approvals plain-list">
            {rows.map((a) => (
              <li class="panel" key={a.id}>
                <h2>
                  <code>{a.tool}</code> <StatusBadge status={a.status} />
                </h2>
                <p>{a.reason}</p>
                <dl class="facts">
                  <dt>Run</dt>
                  <dd>
                    <a href={`/dashboard/agents/${id}/runs/${a.run_id}`}>{a.run_id}</a>
                  </dd>
                  <dt>Asked</dt>
                  <dd>
                    <Time iso={a.created_at} />
                  </dd>
                  <dt>{a.status === 'pending' ? 'Expires' : 'Decided'}</dt>
                  <dd>
                    <Time iso={a.status === 'pending' ? a.expires_at : a.decided_at} />
                  </dd>
                  {a.comment && (
                    <>
                      <dt>Comment</dt>
                      <dd>{a.comment}</dd>
                    </>
                  )}
                </dl>
                {a.status !== 'pending' && (
                  <pre>
                    <code>{json(a.edited_arguments ?? a.arguments)}</code>
                  </pre>
                )}
                {a.edited_arguments && <p class="hint">Approved with edited arguments.</p>}
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
