import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { Agent } from './common.js'
import { StatusBadge } from './common.js'

const approvalRule = (a: Agent) => a.tools.filter((t) => t.approval.mode !== 'never').map((t) => t.name)

/** /dashboard/agents: the workspace's agents. */
export default function Agents() {
  const [status, setStatus] = useState<'' | 'active' | 'disabled'>('')
  const list = usePaged<Agent>((a, cursor) => ok(a.client.GET('/agents', { params: { query: { cursor, ...(status ? { status } : {}) } } })), [status])
  return (
    <Page
      title="Agents"
      actions={
        <a class="button primary" href="/dashboard/agents/new">
          New agent
        </a>
      }
    >
      <div class="filters">
        <div class="field">
          <label for="agent-status">Status</label>
          <select id="agent-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="">All</option>
            <option value="active">Active</option>
            <option value="disabled">Disabled</option>
          </select>
        </div>
      </div>
      <PagedList list={list} emptyView={<Empty title="No agents yet">Create one with “New agent”; its runs and approvals show here.</Empty>}>
        {(rows) => (
          <Table
            caption="Agents"
            rows={rows}
            rowKey={(a) => a.id}
            columns={[
              {
                label: 'Name',
                render: (a) => (
                  <>
                    <a href={`/dashboard/agents/${a.id}`}>{a.name}</a>
                    {a.description && <p class="hint">{a.description}</p>}
                  </>
                ),
              },
              { label: 'Status', render: (a) => <StatusBadge status={a.status} /> },
              { label: 'Tools', render: (a) => a.tools.map((t) => t.name).join(', ') || '—' },
              { label: 'Needs approval', render: (a) => approvalRule(a).join(', ') || '—' },
              { label: 'Approvals', render: (a) => <a href={`/dashboard/agents/${a.id}/approvals`} aria-label={`Approvals of ${a.name}`}>Approvals</a> },
              { label: 'Updated', render: (a) => <Time iso={a.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
