/**
 * What the inbox shows lives in its URL, so a link opened in another tab shows the same, and back and
 * forward step through it: /dashboard/inbox[/conv_…]?status=&assignee=&tag=&channel=&q=&mode=live|sandbox.
 * `mode` is always written: the app opens a tab in the mode its URL names (app.tsx), so a sandbox link
 * does not ask the live API for a sandbox conversation.
 */
export const FILTER_KEYS = ['status', 'assignee', 'tag', 'channel'] as const
/** The list's filters as the URL holds them ('' for none; assignee a member id, `me` or `unassigned`). */
export type Filters = Record<(typeof FILTER_KEYS)[number], string>
/** The search field's id (the `/` shortcut focuses it). */
export const SEARCH_INPUT_ID = 'inbox-search'

export function inboxHref(id: string | undefined, filters: Filters, q: string, mode: 'live' | 'test'): string {
  const p = new URLSearchParams()
  for (const k of FILTER_KEYS) if (filters[k]) p.set(k, filters[k])
  if (q) p.set('q', q)
  p.set('mode', mode === 'test' ? 'sandbox' : 'live')
  return `/dashboard/inbox${id ? `/${id}` : ''}?${p}`
}

/** The mode a URL's `mode` names, if it names one. */
export const modeOfParam = (v: string | undefined): 'live' | 'test' | undefined => (v === 'sandbox' || v === 'test' ? 'test' : v === 'live' ? 'live' : undefined)
