import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Field, Page, PagedList } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { CallsTable } from './calls-table.js'
import { CALL_STATUSES, statusLabel, type CallStatus } from './voice.shared.js'

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
          <CallsTable caption="Calls" rows={rows} />
        )}
      </PagedList>
    </Page>
  )
}
