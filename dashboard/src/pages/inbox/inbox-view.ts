import { useLocation } from 'preact-iso'
import { useEffect, useRef } from 'preact/hooks'
import { useShortcuts } from '../../ui/shortcuts.js'
import { useWorkspace } from '../../ui/workspace.js'
import { inboxHref, modeOfParam, SEARCH_INPUT_ID, type Filters } from './inbox-url.js'

/** The inbox's view read from its URL (inbox-url.ts) and changed by navigating, the tab's mode kept in step with it. */
export function useInboxView() {
  const { path, query, route } = useLocation()
  const { membership, switchTo } = useWorkspace()
  const wanted = modeOfParam(query.mode)
  // A conversation of the other mode is not asked for here (it would be a 404): the effect below sorts it out.
  const id = wanted && wanted !== membership.mode ? undefined : path.replace(/^\/dashboard\/inbox\/?/, '').split('/')[0] || undefined
  const filters: Filters = { status: query.status ?? '', assignee: query.assignee ?? '', tag: query.tag ?? '', channel: query.channel ?? '' }
  const q = query.q ?? ''
  const href = (to: string | undefined, f: Filters = filters, search: string = q) => inboxHref(to, f, search, membership.mode)

  // Keeps the URL's mode and the tab's mode one. Met on mount with another mode, the header's toggle just
  // switched (the conversation open belongs to the other mode: back to the list); changed while mounted,
  // back or forward crossed a switch (follow the URL).
  const mounted = useRef(false)
  useEffect(() => {
    if (!wanted || wanted === membership.mode) {
      if (query.mode !== (membership.mode === 'test' ? 'sandbox' : 'live')) route(href(id), true)
    } else if (!mounted.current) route(href(undefined, { ...filters, assignee: ['me', 'unassigned'].includes(filters.assignee) ? filters.assignee : '', tag: '' }), true)
    else switchTo(membership.workspace_id, wanted)
    mounted.current = true
  }, [query.mode])

  return {
    id,
    filters,
    q,
    href,
    open: (to: string | undefined) => route(href(to)),
    setFilters: (f: Filters) => route(href(id, f)),
    setQ: (search: string) => route(href(id, filters, search)),
  }
}
export type InboxView = ReturnType<typeof useInboxView>

/**
 * j/k through the conversations shown (list or search results; j past the last loaded one loads the next
 * page, `more`), / to search, ? for the help overlay.
 */
export function useInboxKeys(view: InboxView, order: () => string[], onHelp: () => void, more?: () => void) {
  const step = (by: number) => {
    const ids = order()
    if (ids.length === 0) return
    const at = view.id ? ids.indexOf(view.id) : -1
    if (by > 0 && at === ids.length - 1) return more?.()
    const next = at < 0 ? (by > 0 ? 0 : ids.length - 1) : Math.min(Math.max(at + by, 0), ids.length - 1)
    if (ids[next] !== view.id) view.open(ids[next])
  }
  useShortcuts([
    { key: 'j', label: 'Next conversation', run: () => step(1) },
    { key: 'k', label: 'Previous conversation', run: () => step(-1) },
    {
      key: '/',
      label: 'Search',
      run: () => {
        const input = document.getElementById(SEARCH_INPUT_ID) as HTMLInputElement | null
        input?.focus()
        input?.select()
      },
    },
    { key: '?', label: 'Keyboard shortcuts', run: onHelp },
  ])
}
