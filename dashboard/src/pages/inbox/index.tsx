import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Empty, Page } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { BulkBar, useSelection } from './bulk.js'
import { ConversationList, toQuery } from './conversation-list.js'
import { useInboxMeta, type Conversation } from './inbox-shared.js'
import { useInboxKeys, useInboxView } from './inbox-view.js'
import { replaceIn, useInboxCounts, useLiveConversationList, useUnreadTitle } from './live-list.js'
import { NotifyToggle, useNotifier } from './live-notify.js'
import { SearchBox, SearchResults, type SearchHit } from './search.js'
import { ShortcutsHelp } from './shortcuts-help.js'
import { Thread } from './thread.js'
import { t } from '../../i18n/index.js'

/**
 * /dashboard/inbox and /dashboard/inbox/{conversation id}: the list and the open conversation side by side
 * (stacked on a phone). One component for both paths, so the list (its filters and loaded pages) stays as
 * it is while conversations are opened.
 */
export default function InboxArea() {
  const view = useInboxView()
  const { id, filters, q } = view
  const meta = useInboxMeta()
  const query = toQuery(filters)
  const list = usePaged<Conversation>(
    (api, cursor) => ok(api.client.GET('/inbox/conversations', { params: { query: { ...query, order: 'last_activity', limit: 20, cursor } } })),
    [filters.status, filters.assignee, filters.tag, filters.channel],
  )
  // Live: the list follows the event stream, the title counts unread conversations, notifications (opt-in).
  useLiveConversationList(list, query, id, useNotifier(id))
  useUnreadTitle(t('inbox.title'), useInboxCounts()?.unread)
  const changed = (c: Conversation) => replaceIn(list, c)
  // Search, selection for bulk actions, keyboard (inbox-view.ts, bulk.tsx, search.tsx).
  const results = usePaged<SearchHit>(async (api, cursor) => (q ? ok(api.client.GET('/inbox/search', { params: { query: { q, limit: 20, cursor } } })) : { data: [], has_more: false }), [q])
  const sel = useSelection()
  const [help, setHelp] = useState(false)
  const order = () => (q ? [...new Set(results.items.map((h) => h.conversation.id))] : list.items.map((c) => c.id))
  const shown = q ? results : list
  useInboxKeys(
    view,
    order,
    () => setHelp(true),
    () => {
      if (shown.hasMore) void shown.more()
    },
  )
  return (
    <Page
      title="Inbox"
      actions={
        <>
          <button type="button" aria-pressed={filters.assignee === 'me'} onClick={() => view.setFilters({ ...filters, assignee: filters.assignee === 'me' ? '' : 'me' })}>
            {t('inbox.mine')}
          </button>
          <button type="button" onClick={() => setHelp(true)} aria-keyshortcuts="?">
            {t('inbox.keys.button')} <kbd>?</kbd>
          </button>
        </>
      }
    >
      <NotifyToggle />
      <ShortcutsHelp open={help} onClose={() => setHelp(false)} />
      <div class={id ? 'split inbox has-thread' : 'split inbox'}>
        <div class="inbox-list">
          <SearchBox q={q} onSearch={view.setQ} />
          {q ? (
            <SearchResults q={q} list={results} selectedId={id} hrefFor={(to) => view.href(to)} />
          ) : (
            <>
              <BulkBar sel={sel} items={list.items} meta={meta} onChanged={changed} />
              <ConversationList filters={filters} onFilters={view.setFilters} list={list} meta={meta} selectedId={id} hrefFor={(to) => view.href(to)} selection={sel} />
            </>
          )}
        </div>
        <div class="inbox-thread" style={{ minWidth: 0 }}>
          {id && (
            <a class="back-to-list" href={view.href(undefined)}>
              {t('inbox.phone.back')}
            </a>
          )}
          {id ? <Thread key={id} id={id} meta={meta} onChanged={changed} /> : <Empty title="No conversation open">Choose a conversation in the list to read it and reply.</Empty>}
        </div>
      </div>
    </Page>
  )
}
