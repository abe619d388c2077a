import type { components } from '../../api/schema.js'
import { Badge, Empty, Field, PagedList, Time } from '../../ui/components.js'
import type { usePaged } from '../../ui/hooks.js'
import { SelectBox, type Selection } from './bulk.js'
import { CHANNELS, STATUSES, contactLabel, memberLabel, statusTone, type Conversation, type InboxMeta } from './inbox-shared.js'
import { UnreadBadge } from './live-unread.js'
import { t } from '../../i18n/index.js'

export interface Filters {
  status: string
  assignee: string
  tag: string
  channel: string
}
export const NO_FILTERS: Filters = { status: '', assignee: '', tag: '', channel: '' }

export type ConversationQuery = {
  status?: components['schemas']['ConversationStatus']
  assignee?: string
  tag?: string
  channel?: components['schemas']['ConversationChannel']
}
export const toQuery = (f: Filters): ConversationQuery => ({
  status: (f.status || undefined) as ConversationQuery['status'],
  assignee: f.assignee || undefined,
  tag: f.tag || undefined,
  channel: (f.channel || undefined) as ConversationQuery['channel'],
})

/** The filters (status, assignee, tag, channel) and the conversations, newest first, with "Load more". */
export function ConversationList(props: {
  filters: Filters
  onFilters: (f: Filters) => void
  list: ReturnType<typeof usePaged<Conversation>>
  meta: InboxMeta
  selectedId: string | undefined
  /** The link to a conversation (keeps the filters and mode in the URL). */
  hrefFor: (id: string) => string
  selection: Selection
}) {
  const { filters, onFilters, list, meta, selectedId, hrefFor, selection } = props
  // The filters are the URL's (back and forward change them): the selects show them as they are.
  const draft = filters
  const set = (k: keyof Filters) => (e: Event) => onFilters({ ...draft, [k]: (e.target as HTMLSelectElement).value })
  const order = () => list.items.map((c) => c.id)
  const memberName = (id: string | null) => {
    if (!id) return 'Unassigned'
    const m = meta.members.data?.find((x) => x.id === id)
    return m ? (m.name ?? m.email) : id
  }
  return (
    <div class="conversation-list">
      <form class="filters" role="search" aria-label="Filter conversations" onSubmit={(e) => e.preventDefault()}>
        <Field label="Status">
          {(id) => (
            <select id={id} value={draft.status} onChange={set('status')}>
              <option value="">All</option>
              {STATUSES.map((s) => (
                <option value={s}>{s}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Assignee">
          {(id) => (
            <select id={id} value={draft.assignee} onChange={set('assignee')}>
              <option value="">Anyone</option>
              <option value="me">{t('inbox.mine')}</option>
              <option value="unassigned">Unassigned</option>
              {(meta.members.data ?? []).map((m) => (
                <option value={m.id}>{memberLabel(m)}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Tag">
          {(id) => (
            <select id={id} value={draft.tag} onChange={set('tag')}>
              <option value="">Any</option>
              {(meta.tags.data ?? []).map((t) => (
                <option value={t.name}>{t.name}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label="Channel">
          {(id) => (
            <select id={id} value={draft.channel} onChange={set('channel')}>
              <option value="">Any</option>
              {CHANNELS.map((c) => (
                <option value={c}>{c}</option>
              ))}
            </select>
          )}
        </Field>
      </form>
      <PagedList list={list} emptyView={<Empty title="No conversations">Conversations arrive through the API, the chat widget, e-mail, SMS, WhatsApp and voice.</Empty>}>
        {(rows) => (
          <ul class="conv-items" aria-label="Conversations" style={{ listStyle: 'none', padding: 0, margin: 0 }}>
            {rows.map((c) => (
              <li key={c.id} class="conv-item" style={{ marginBottom: '0.5rem' }}>
                <SelectBox sel={selection} conv={c} order={order} />
                <a
                  class="card"
                  href={hrefFor(c.id)}
                  aria-current={c.id === selectedId ? 'true' : undefined}
                  style={{
                    fontWeight: 400,
                    borderColor: c.id === selectedId ? 'var(--accent)' : undefined,
                    borderWidth: c.id === selectedId ? '2px' : undefined,
                    padding: '0.6rem 0.75rem',
                    overflowWrap: 'anywhere',
                  }}
                >
                  <strong>{contactLabel(c)}</strong>
                  <UnreadBadge c={c} /> <Badge tone={statusTone(c.status)}>{c.status}</Badge>
                  <br />
                  <span>{c.subject ?? 'No subject'}</span>
                  <br />
                  <small style={{ color: 'var(--muted)' }}>
                    {c.channel} · {memberName(c.assignee_id)} · <Time iso={c.last_message_at ?? c.updated_at} />
                    {c.tags.length > 0 && ` · ${c.tags.join(', ')}`}
                  </small>
                </a>
              </li>
            ))}
          </ul>
        )}
      </PagedList>
    </div>
  )
}
