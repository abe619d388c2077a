import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Empty, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import type { components } from '../../api/schema.js'

type Gap = components['schemas']['KnowledgeGap']

/** /dashboard/knowledge/gaps: questions the knowledge could not answer, grouped. */
export default function Gaps() {
  const [status, setStatus] = useState<'open' | 'resolved' | ''>('open')
  const [order, setOrder] = useState<'recent' | 'count'>('recent')
  const gaps = usePaged<Gap>((a, cursor) => ok(a.client.GET('/knowledge/gaps', { params: { query: { cursor, order, ...(status ? { status } : {}) } } })), [status, order])
  return (
    <Page title="Knowledge gaps">
      <p>Questions whose best passage scored below 0.5. A document that answers one resolves it.</p>
      <div class="filters">
        <div class="field">
          <label for="gap-status">Status</label>
          <select id="gap-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as typeof status)}>
            <option value="open">Open</option>
            <option value="resolved">Resolved</option>
            <option value="">All</option>
          </select>
        </div>
        <div class="field">
          <label for="gap-order">Order</label>
          <select id="gap-order" value={order} onChange={(e) => setOrder(e.currentTarget.value as typeof order)}>
            <option value="recent">Last asked first</option>
            <option value="count">Most asked first</option>
          </select>
        </div>
      </div>
      <PagedList list={gaps} emptyView={<Empty title="No knowledge gaps">Every question asked found a good answer.</Empty>}>
        {(rows) => (
          <Table
            caption="Knowledge gaps"
            rows={rows}
            rowKey={(g) => g.id}
            columns={[
              {
                label: 'Question',
                render: (g) => (
                  <>
                    {g.question}
                    {g.examples.length > 1 && <p class="hint">Also asked: {g.examples.filter((x) => x !== g.question).join(' · ')}</p>}
                  </>
                ),
              },
              { label: 'Asked', class: 'num', render: (g) => g.count },
              { label: 'Best score', class: 'num', render: (g) => g.best_score.toFixed(2) },
              { label: 'Status', render: (g) => <Badge tone={g.status === 'open' ? 'warn' : 'good'}>{g.status}</Badge> },
              { label: 'Last asked', render: (g) => <Time iso={g.last_seen_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
