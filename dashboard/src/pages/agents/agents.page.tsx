import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { Agent } from './common.js'
import { StatusBadge } from './common.js'
import { t } from '../../i18n/index.js'

const approvalRule = (a: Agent) => a.tools.filter((t) => t.approval.mode !== 'never').map((t) => t.name)

/** /dashboard/agents: the workspace's agents. */
export default function Agents() {
  const [status, setStatus] = useState<'' | 'active' | 'disabled'>('')
  const list = usePaged<Agent>((a, cursor) => ok(a.client.GET('/agents', { params: { query: { cursor, ...(status ? { status } : {}) } } })), [status])
  return (
    <Page
      title={t('agents.agents.agents')}
      actions={
        <a class="button primary" href="/dashboard/agents/new">
          {t('agents.agentEdit.newAgent')}
        </a>
      }
    >
      <div class="filters">
        <div class="field">
          <label for="agent-status">{t('agents.agentForm.status')}</label>
          <select id="agent-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="">{t('agents.agent.all')}</option>
            <option value="active">{t('agents.agentForm.active')}</option>
            <option value="disabled">{t('agents.agentForm.disabled')}</option>
          </select>
        </div>
      </div>
      <PagedList list={list} emptyView={<Empty title={t('agents.agents.noAgentsYet')}>{t('agents.agents.createOneWithNewAgent')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('agents.agents.agents')}
            rows={rows}
            rowKey={(a) => a.id}
            columns={[
              {
                label: t('agents.agentForm.name'),
                render: (a) => (
                  <>
                    <a href={`/dashboard/agents/${a.id}`}>{a.name}</a>
                    {a.description && <p class="hint">{a.description}</p>}
                  </>
                ),
              },
              { label: t('agents.agentForm.status'), render: (a) => <StatusBadge status={a.status} /> },
              { label: t('agents.agent.tools'), render: (a) => a.tools.map((t) => t.name).join(', ') || '—' },
              { label: t('agents.agents.needsApproval'), render: (a) => approvalRule(a).join(', ') || '—' },
              {
                label: t('agents.agents.approvals'),
                render: (a) => (
                  <a href={`/dashboard/agents/${a.id}/approvals`} aria-label={t('agents.agents.approvalsOfName', { name: a.name })}>
                    {t('agents.agents.approvals')}
                  </a>
                ),
              },
              { label: t('agents.agents.updated'), render: (a) => <Time iso={a.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
