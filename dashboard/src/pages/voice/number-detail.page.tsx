import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Empty, Notice, Page, PagedList, Time } from '../../ui/components.js'
import { usePaged, useResource } from '../../ui/hooks.js'
import { CallsTable } from './calls-table.js'
import { EditNumberDialog, ReleaseNumberDialog } from './number-edit.js'
import { AnsweredBy } from './voice.shared.js'

export const NUMBERS = '/dashboard/voice/numbers'

/** /dashboard/voice/numbers/:id: a number's facts, edit (name, answerer, greeting), release, and its calls. */
export default function NumberDetail() {
  const { id } = useRoute().params as { id: string }
  const { route } = useLocation()
  const num = useResource((a) => ok(a.client.GET('/voice/numbers/{id}', { params: { path: { id } } })), [id])
  const calls = usePaged((a, cursor) => ok(a.client.GET('/voice/calls', { params: { query: { number_id: id, cursor, limit: 20 } } })), [id])
  const [editing, setEditing] = useState(false)
  const [releasing, setReleasing] = useState(false)
  const [saved, setSaved] = useState(false)
  return (
    <Page title={num.data?.phone_number ?? 'Phone number'}>
      <p>
        <a href={NUMBERS}>← All numbers</a>
      </p>
      <Async loading={num.loading} error={num.error} data={num.data} onRetry={num.reload}>
        {(n) => (
          <>
            <section class="panel" aria-labelledby="number-facts">
              <h2 id="number-facts">{n.friendly_name}</h2>
              <dl class="facts">
                <dt>Number</dt>
                <dd class="phone">{n.phone_number}</dd>
                <dt>Answered by</dt>
                <dd>
                  <AnsweredBy n={n} />
                </dd>
                <dt>Greeting</dt>
                <dd class="greeting">{n.answer.greeting ?? <span class="muted">the answerer's own</span>}</dd>
                <dt>Country</dt>
                <dd>
                  {n.country}
                  {n.area_code && <span class="muted"> (area {n.area_code})</span>}
                </dd>
                <dt>Carrier</dt>
                <dd>
                  <Badge tone={n.carrier === 'simulated' ? 'info' : 'neutral'}>{n.carrier}</Badge>
                </dd>
                <dt>Capabilities</dt>
                <dd>{[n.capabilities.voice && 'voice', n.capabilities.sms && 'SMS'].filter(Boolean).join(', ') || '—'}</dd>
                <dt>Number id</dt>
                <dd>
                  <code>{n.id}</code>
                </dd>
                <dt>Provisioned</dt>
                <dd>
                  <Time iso={n.created_at} />
                </dd>
                <dt>Updated</dt>
                <dd>
                  <Time iso={n.updated_at} />
                </dd>
              </dl>
              <div class="form-actions">
                <button type="button" onClick={() => (setSaved(false), setEditing(true))}>
                  Edit
                </button>
                <button type="button" class="danger" onClick={() => (setSaved(false), setReleasing(true))}>
                  Release number
                </button>
              </div>
            </section>
            {saved && <Notice>Number saved.</Notice>}
            <EditNumberDialog
              number={n}
              open={editing}
              onClose={() => setEditing(false)}
              onSaved={(next) => {
                num.set(next)
                setEditing(false)
                setSaved(true)
              }}
            />
            <ReleaseNumberDialog number={n} open={releasing} onClose={() => setReleasing(false)} onReleased={() => route(`${NUMBERS}?released=${encodeURIComponent(n.phone_number)}`)} />
          </>
        )}
      </Async>
      <section aria-labelledby="number-calls">
        <div class="page-head">
          <h2 id="number-calls">Calls</h2>
          <button type="button" onClick={calls.reload}>
            Refresh
          </button>
        </div>
        <PagedList list={calls} emptyView={<Empty title="No calls from or to this number yet" />}>
          {(rows) => <CallsTable caption="Calls from and to this number" rows={rows} />}
        </PagedList>
      </section>
    </Page>
  )
}
