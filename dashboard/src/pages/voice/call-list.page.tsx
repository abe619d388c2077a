import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Page, PagedList, Table, Time, formatTime } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { CALL_STATUSES, CallStatusBadge, duration, statusLabel, type Call, type CallStatus } from './voice.shared.js'

type Direction = 'inbound' | 'outbound'

/** /dashboard/voice: the calls, newest first, filtered by status and direction. */
export default function CallList() {
  const [status, setStatus] = useState<CallStatus | ''>('')
  const [direction, setDirection] = useState<Direction | ''>('')
  const calls = usePaged(
    (api, cursor) => ok(api.client.GET('/voice/calls', { params: { query: { cursor, limit: 20, status: status || undefined, direction: direction || undefined } } })),
    [status, direction],
  )
  return (
    <Page title="Calls">
      <div class="filters" role="search" aria-label="Filter calls">
        <Field label="Status">
          {(id) => (
            <select id={id} value={status} onChange={(e) => setStatus((e.target as HTMLSelectElement).value as CallStatus | '')}>
              <option value="">Any status</option>
              {CALL_STATUSES.map((s) => (
                <option value={s}>{statusLabel(s)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Direction">
          {(id) => (
            <select id={id} value={direction} onChange={(e) => setDirection((e.target as HTMLSelectElement).value as Direction | '')}>
              <option value="">Both</option>
              <option value="outbound">Outbound</option>
              <option value="inbound">Inbound</option>
            </select>
          )}
        </Field>
      </div>
      <PagedList
        list={calls}
        emptyView={
          <Empty title="No calls yet">
            Calls placed with <code>POST /voice/calls</code> and calls to your numbers appear here.
          </Empty>
        }
      >
        {(rows) => (
          <Table<Call>
            caption="Calls"
            rows={rows}
            rowKey={(c) => c.id}
            columns={[
              { label: 'Time', render: (c) => <a href={`/dashboard/voice/calls/${c.id}`} aria-label={`Call of ${formatTime(c.created_at)} to ${c.to}`}><Time iso={c.created_at} /></a> },
              { label: 'Direction', render: (c) => (c.direction === 'inbound' ? 'Inbound' : 'Outbound') },
              { label: 'From', render: (c) => <span class="phone">{c.from}</span> },
              { label: 'To', render: (c) => <span class="phone">{c.to}</span> },
              { label: 'Status', render: (c) => <CallStatusBadge status={c.status} /> },
              { label: 'Duration', class: 'num', render: duration },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
