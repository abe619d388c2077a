import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Field, Page, PagedList, Table, Time, formatTime } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { ACTOR_TYPES, isoOf, label, type ActorType, type AuditEntry } from './compliance.shared.js'

interface Filters {
  actor_type: ActorType | ''
  actor_id: string
  action: string
  target_id: string
  from: string
  to: string
}
const NONE: Filters = { actor_type: '', actor_id: '', action: '', target_id: '', from: '', to: '' }

/** /dashboard/compliance/audit-log: every change, newest first, filtered; each entry's details in a dialog. */
export default function AuditLog() {
  const [draft, setDraft] = useState<Filters>(NONE)
  const [applied, setApplied] = useState<Filters>(NONE)
  const [open, setOpen] = useState<AuditEntry>()
  const log = usePaged(
    (api, cursor) =>
      ok(
        api.client.GET('/compliance/audit-log', {
          params: {
            query: {
              cursor,
              limit: 25,
              actor_type: applied.actor_type || undefined,
              actor_id: applied.actor_id.trim() || undefined,
              action: applied.action.trim() || undefined,
              target_id: applied.target_id.trim() || undefined,
              from: isoOf(applied.from),
              to: isoOf(applied.to),
            },
          },
        }),
      ),
    [applied],
  )
  const set = (k: keyof Filters) => (e: Event) => setDraft({ ...draft, [k]: (e.target as HTMLInputElement).value })
  return (
    <Page title="Audit log">
      <form
        class="filters"
        role="search"
        aria-label="Filter the audit log"
        onSubmit={(e) => {
          e.preventDefault()
          setApplied({ ...draft })
        }}
      >
        <Field label="Actor type">
          {(id) => (
            <select id={id} value={draft.actor_type} onChange={set('actor_type')}>
              <option value="">Any</option>
              {ACTOR_TYPES.map((t) => (
                <option value={t}>{label(t)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Actor id">{(id) => <input id={id} value={draft.actor_id} onInput={set('actor_id')} placeholder="mem_… or key id" />}</Field>
        <Field label="Action">{(id) => <input id={id} value={draft.action} onInput={set('action')} placeholder="createLead" />}</Field>
        <Field label="Target id">{(id) => <input id={id} value={draft.target_id} onInput={set('target_id')} placeholder="lead_…" />}</Field>
        <Field label="From">{(id) => <input id={id} type="datetime-local" value={draft.from} onInput={set('from')} />}</Field>
        <Field label="To">{(id) => <input id={id} type="datetime-local" value={draft.to} onInput={set('to')} />}</Field>
        <div class="form-actions filter-actions">
          <button type="submit" class="primary">
            Apply filters
          </button>
          <button
            type="button"
            onClick={() => {
              setDraft(NONE)
              setApplied(NONE)
            }}
          >
            Clear
          </button>
        </div>
      </form>
      <PagedList list={log} emptyView={<Empty title="No entries">No change matches these filters.</Empty>}>
        {(rows) => (
          <Table<AuditEntry>
            caption="Audit log entries"
            rows={rows}
            rowKey={(a) => a.id}
            columns={[
              { label: 'Time', render: (a) => <Time iso={a.occurred_at} /> },
              {
                label: 'Actor',
                render: (a) => (
                  <>
                    <Badge tone={a.actor.type === 'member' ? 'info' : 'neutral'}>{label(a.actor.type)}</Badge> {a.actor.id && <code>{a.actor.id}</code>}
                  </>
                ),
              },
              { label: 'Action', render: (a) => <code>{a.action}</code> },
              { label: 'Target', render: (a) => (a.target.id ? <code>{a.target.id}</code> : (a.target.type ?? '—')) },
              {
                label: 'Details',
                render: (a) => (
                  <button type="button" onClick={() => setOpen(a)} aria-label={`Details of ${a.action} at ${formatTime(a.occurred_at)}`}>
                    Details
                  </button>
                ),
              },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={!!open} title="Audit entry" onClose={() => setOpen(undefined)}>
        {open && <EntryFacts a={open} />}
      </Dialog>
    </Page>
  )
}

const list = (xs: string[]) => (xs.length ? xs.join(', ') : '—')

function EntryFacts({ a }: { a: AuditEntry }) {
  return (
    <dl class="facts" data-testid="audit-entry">
      <dt>Entry</dt>
      <dd>
        <code>{a.id}</code>
      </dd>
      <dt>When</dt>
      <dd>
        <Time iso={a.occurred_at} />
      </dd>
      <dt>Actor</dt>
      <dd>
        {label(a.actor.type)} {a.actor.id && <code>{a.actor.id}</code>}
      </dd>
      <dt>Action</dt>
      <dd>
        <code>{a.action}</code>
      </dd>
      <dt>Target</dt>
      <dd>
        {a.target.type ?? '—'} {a.target.id && <code>{a.target.id}</code>}
      </dd>
      <dt>Fields set</dt>
      <dd>{list(a.fields)}</dd>
      <dt>Events</dt>
      <dd>{list(a.events)}</dd>
      <dt>Mode</dt>
      <dd>{a.livemode ? 'live' : 'sandbox'}</dd>
      <dt>IP</dt>
      <dd>{a.ip ?? '—'}</dd>
      <dt>User agent</dt>
      <dd class="wrap">{a.user_agent ?? '—'}</dd>
      <dt>Request id</dt>
      <dd>{a.request_id ? <code>{a.request_id}</code> : '—'}</dd>
      <dt>Chain</dt>
      <dd class="wrap">{a.chain.seq == null ? 'not sealed yet' : <>#{a.chain.seq} <code>{a.chain.hash}</code></>}</dd>
    </dl>
  )
}
