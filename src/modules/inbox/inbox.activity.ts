import { PREVIEW_LENGTH } from './inbox.input.js'
import type { InboxConversationsTable, InboxMessagesTable } from './inbox.tables.js'

/** The first PREVIEW_LENGTH characters (code points, so no half of a surrogate pair). */
export const previewOf = (content: string): string => {
  const head = content.slice(0, PREVIEW_LENGTH * 2)
  return head.length <= PREVIEW_LENGTH ? head : Array.from(head).slice(0, PREVIEW_LENGTH).join('')
}

/** What a new message sets on its conversation: last activity and the preview, written with the message. */
export function activityOf(m: InboxMessagesTable) {
  return {
    last_message_at: m.created_at,
    last_activity_at: m.created_at,
    last_message_id: m.id,
    last_message_direction: m.direction,
    last_message_author_type: m.author_type,
    last_message_author_id: m.author_id,
    last_message_private: m.private,
    last_message_preview: previewOf(m.content),
  } satisfies Partial<InboxConversationsTable>
}

/** A conversation with no message yet: its activity is its creation. */
export function noActivity(createdAt: string) {
  return {
    last_message_at: null,
    last_activity_at: createdAt,
    last_message_id: null,
    last_message_direction: null,
    last_message_author_type: null,
    last_message_author_id: null,
    last_message_private: null,
    last_message_preview: null,
  } satisfies Partial<InboxConversationsTable>
}
