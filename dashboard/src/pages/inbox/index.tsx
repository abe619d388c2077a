import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Page } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { ConversationList, NO_FILTERS, toQuery, type Filters } from './conversation-list.js'
import { useInboxMeta, type Conversation } from './inbox-shared.js'
import { Thread } from './thread.js'

/**
 * /dashboard/inbox and /dashboard/inbox/{conversation id}: the list and the open conversation side by side
 * (stacked on a phone). One component for both paths, so the list (its filters and loaded pages) stays as
 * it is while conversations are opened.
 */
export default function InboxArea() {
  const { path } = useLocation()
  const id = path.replace(/^\/dashboard\/inbox\/?/, '').split('/')[0] || undefined
  const meta = useInboxMeta()
  const [filters, setFilters] = useState<Filters>(NO_FILTERS)
  const list = usePaged<Conversation>(
    (api, cursor) => ok(api.client.GET('/inbox/conversations', { params: { query: { ...toQuery(filters), limit: 20, cursor } } })),
    [filters.status, filters.assignee, filters.tag, filters.channel],
  )
  const changed = (c: Conversation) => list.setItems((xs) => xs.map((x) => (x.id === c.id ? c : x)))
  return (
    <Page title="Inbox">
      <div class="split">
        <ConversationList filters={filters} onFilters={setFilters} list={list} meta={meta} selectedId={id} />
        <div style={{ minWidth: 0 }}>
          {id ? (
            <Thread key={id} id={id} meta={meta} onChanged={changed} />
          ) : (
            <Empty title="No conversation open">Choose a conversation in the list to read it and reply.</Empty>
          )}
        </div>
      </div>
    </Page>
  )
}
