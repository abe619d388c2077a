import type { components } from '../../api/schema.js'

// The live inbox's rules (no browser, no components: dashboard/live.test.ts checks them in Node).

/** A conversation with the fields the live inbox reads (issue 31's API additions; optional until every server has them). */
export type LiveConversation = components['schemas']['Conversation'] & { unread_count?: number | null; last_activity_at?: string; last_message?: { preview: string; direction: string } | null }

/** When a conversation last saw activity: the list's order, newest first. */
export const activityOf = (c: LiveConversation): string => c.last_activity_at ?? c.last_message_at ?? c.created_at

export const byActivity = (a: LiveConversation, b: LiveConversation): number => (activityOf(a) < activityOf(b) ? 1 : activityOf(a) > activityOf(b) ? -1 : a.id < b.id ? 1 : -1)

/**
 * Whether a conversation belongs in a list asked for with `query` (the listConversations query): true,
 * false, or undefined when the query has a condition this cannot judge in the browser (a search), and the
 * list then only updates what it shows already.
 */
export function matchesQuery(c: LiveConversation, query: Record<string, unknown>, me: string): boolean | undefined {
  let known = true
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined || v === '' || k === 'limit' || k === 'cursor' || k === 'order') continue
    if (k === 'status' && c.status !== v) return false
    else if (k === 'channel' && c.channel !== v) return false
    else if (k === 'tag' && !c.tags.some((t) => t.toLowerCase() === String(v).toLowerCase())) return false
    else if (k === 'assignee') {
      const want = v === 'me' ? me : v === 'unassigned' ? null : v
      if ((c.assignee_id ?? null) !== want) return false
    } else if (k === 'unread') {
      if ((v === true || v === 'true') && !(c.unread_count ?? 0)) return false
    } else if (k !== 'status' && k !== 'channel' && k !== 'tag') known = false
  }
  return known ? true : undefined
}
