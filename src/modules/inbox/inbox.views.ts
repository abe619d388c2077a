import { placeholdersOf } from '../../kernel/ai/ai.js'
import { fromJson } from '../../kernel/db/database.js'
import type { AiDraftT, ConversationT, InboxTagT, MessageT, ReplyTemplateT } from './inbox.schemas.js'
import type { InboxAiDraftsTable, InboxConversationsTable, InboxMessagesTable, InboxReplyTemplatesTable, InboxTagsTable } from './inbox.tables.js'

// Row → API resource, one pure function per resource: what responses, events and lists all show.

/** The columns a conversation's view reads: lists select only these (fewer values to materialise per row). */
export const CONVERSATION_VIEW_COLUMNS = [
  'id',
  'status',
  'channel',
  'subject',
  'contact_name',
  'contact_email',
  'contact_phone',
  'contact_external_id',
  'assignee_id',
  'tags',
  'lead_score',
  'lead_factors',
  'metadata',
  'last_message_at',
  'snoozed_until',
  'resolved_at',
  'created_at',
  'updated_at',
  'last_activity_at',
  'last_message_id',
  'last_message_direction',
  'last_message_author_type',
  'last_message_author_id',
  'last_message_private',
  'last_message_preview',
] as const satisfies readonly (keyof InboxConversationsTable)[]
export type ConversationViewRow = Pick<InboxConversationsTable, (typeof CONVERSATION_VIEW_COLUMNS)[number]>

/**
 * `unreadCount`: for a member's credential, inbound messages after the member's read mark; null where
 * there is no member (API keys, events, which are not per member).
 */
export function conversationView(row: ConversationViewRow, unreadCount: number | null = null): ConversationT {
  return {
    id: row.id,
    object: 'conversation',
    status: row.status,
    channel: row.channel,
    subject: row.subject,
    contact: { name: row.contact_name, email: row.contact_email, phone: row.contact_phone, external_id: row.contact_external_id },
    assignee_id: row.assignee_id,
    tags: fromJson<string[]>(row.tags, []),
    lead_score: { score: Number(row.lead_score), factors: fromJson<string[]>(row.lead_factors, []) },
    metadata: fromJson(row.metadata, {}),
    last_message_at: row.last_message_at,
    last_activity_at: row.last_activity_at,
    last_message: row.last_message_id
      ? {
          id: row.last_message_id,
          direction: row.last_message_direction!,
          author: { type: row.last_message_author_type!, id: row.last_message_author_id },
          private: Number(row.last_message_private) === 1,
          preview: row.last_message_preview ?? '',
          created_at: row.last_message_at!,
        }
      : null,
    unread_count: unreadCount,
    snoozed_until: row.snoozed_until,
    resolved_at: row.resolved_at,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function messageView(row: InboxMessagesTable): MessageT {
  return {
    id: row.id,
    object: 'message',
    conversation_id: row.conversation_id,
    direction: row.direction,
    author: { type: row.author_type, id: row.author_id },
    content: row.content,
    private: row.private === 1,
    attachments: fromJson(row.attachments, []),
    delivery: row.delivery ? fromJson(row.delivery, null) : null,
    created_at: row.created_at,
  }
}

export function draftView(row: InboxAiDraftsTable): AiDraftT {
  return {
    id: row.id,
    object: 'ai_draft',
    conversation_id: row.conversation_id,
    content: row.content,
    confidence: row.confidence === null ? null : Number(row.confidence),
    grounded: row.grounded === 1,
    sources: fromJson(row.sources, []),
    provider: row.provider,
    model: row.model,
    created_at: row.created_at,
  }
}

export function templateView(row: InboxReplyTemplatesTable): ReplyTemplateT {
  return {
    id: row.id,
    object: 'reply_template',
    name: row.name,
    content: row.content,
    placeholders: placeholdersOf(row.content),
    shortcut: row.shortcut,
    language: row.language,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

export function tagView(row: InboxTagsTable): InboxTagT {
  return { id: row.id, object: 'inbox_tag', name: row.name, color: row.color, created_at: row.created_at }
}
