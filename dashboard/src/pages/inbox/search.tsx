import { useEffect, useState } from 'preact/hooks'
import { Badge, Empty, PagedList, Time } from '../../ui/components.js'
import type { usePaged } from '../../ui/hooks.js'
import type { components } from '../../api/schema.js'
import { t } from '../../i18n/index.js'
import { contactLabel, statusTone } from './inbox-shared.js'
import { SEARCH_INPUT_ID } from './inbox-url.js'

/** One hit of searchInbox: the conversation, the message that matched (if a message did) and a snippet. */
export type SearchHit = components['schemas']['InboxSearchResult']

const ENTITIES: Record<string, string> = { '&amp;': '&', '&lt;': '<', '&gt;': '>', '&quot;': '"', '&#39;': "'", '&#x27;': "'" }
const unescape = (s: string) => s.replace(/&(amp|lt|gt|quot|#39|#x27);/g, (e) => ENTITIES[e] ?? e)

/**
 * The API's snippet (HTML-escaped text, each matching word in <mark>…</mark>) as text and <mark>
 * elements: read as data, never given to innerHTML.
 */
export function Snippet({ html }: { html: string }) {
  const parts = html.split(/<mark>|<\/mark>/)
  return <small class="snippet">{parts.map((p, i) => (i % 2 === 1 ? <mark>{unescape(p)}</mark> : unescape(p)))}</small>
}

/** The search field over the list: the query goes to the URL (`q`) when submitted; Escape or × clears it. */
export function SearchBox({ q, onSearch }: { q: string; onSearch: (q: string) => void }) {
  const [text, setText] = useState(q)
  useEffect(() => setText(q), [q])
  return (
    <form
      class="inbox-search"
      role="search"
      aria-label={t('inbox.search.label')}
      onSubmit={(e) => {
        e.preventDefault()
        onSearch(text.trim())
      }}
    >
      <label for={SEARCH_INPUT_ID} class="visually-hidden">
        {t('inbox.search.label')}
      </label>
      <input
        id={SEARCH_INPUT_ID}
        type="search"
        value={text}
        placeholder={t('inbox.search.placeholder')}
        aria-keyshortcuts="/"
        maxLength={200}
        onInput={(e) => setText((e.target as HTMLInputElement).value)}
        onKeyDown={(e) => {
          if (e.key === 'Escape' && q) {
            e.preventDefault()
            onSearch('')
          }
        }}
      />
      <button type="submit">{t('inbox.search.submit')}</button>
      {q && (
        <button type="button" onClick={() => onSearch('')}>
          {t('inbox.search.clear')}
        </button>
      )}
    </form>
  )
}

/** The hits for `q`, newest activity first, each a link to its conversation with the matching snippet. */
export function SearchResults({ q, list, selectedId, hrefFor }: { q: string; list: ReturnType<typeof usePaged<SearchHit>>; selectedId: string | undefined; hrefFor: (id: string) => string }) {
  return (
    <PagedList list={list} emptyView={<Empty title={t('inbox.search.none')}>{t('inbox.search.noneHint', { q })}</Empty>} loadingLabel={t('inbox.search.searching')}>
      {(rows) => (
        <ul class="conv-items" aria-label={t('inbox.search.results')} style={{ listStyle: 'none', padding: 0, margin: 0 }}>
          {rows.map((h) => {
            const c = h.conversation
            return (
              <li key={`${c.id}:${h.message?.id ?? ''}`} style={{ marginBottom: '0.5rem' }}>
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
                  <strong>{contactLabel(c)}</strong> <Badge tone={statusTone(c.status)}>{c.status}</Badge>
                  <br />
                  <span>{c.subject ?? t('inbox.search.noSubject')}</span>
                  <br />
                  <Snippet html={h.snippet} />
                  <small style={{ color: 'var(--muted)' }}>
                    {h.message ? (h.message.direction === 'inbound' ? t('inbox.search.customer') : t('inbox.search.team')) : t('inbox.search.conversation')} ·{' '}
                    <Time iso={h.message?.created_at ?? c.updated_at} />
                  </small>
                </a>
              </li>
            )
          })}
        </ul>
      )}
    </PagedList>
  )
}
