import type { Generated } from 'kysely'
import type { Mode } from '../../kernel/tenant.js'

export type ConversationStatus = 'open' | 'pending' | 'snoozed' | 'resolved'
export type Channel = 'api' | 'chat' | 'email' | 'sms' | 'whatsapp' | 'voice'
export type Direction = 'inbound' | 'outbound'
export type AuthorType = 'contact' | 'member' | 'bot' | 'agent' | 'api_key'

export interface InboxConversationsTable {
  id: string
  workspace_id: string
  mode: Mode
  status: ConversationStatus
  channel: Channel
  subject: string | null
  contact_name: string | null
  contact_email: string | null
  contact_phone: string | null
  contact_external_id: string | null
  assignee_id: string | null
  /** JSON array of tag names, as created (the filter uses inbox_conversation_tags). */
  tags: string
  lead_score: number
  /** JSON array of factor strings. */
  lead_factors: string
  /** 1 when a person overrode the score; messages then leave it alone. */
  lead_score_manual: number
  /** JSON array of topics seen in inbound messages (pricing, demo, …): the scorer's memory. */
  lead_signals: string
  inbound_count: number
  metadata: string
  last_message_at: string | null
  /** The newest message's time, else the creation time: what `order=last_activity` sorts by (indexed). */
  last_activity_at: string
  /** The newest message, denormalised when it is written: the list's preview costs no per-row read. */
  last_message_id: string | null
  last_message_direction: Direction | null
  last_message_author_type: AuthorType | null
  last_message_author_id: string | null
  last_message_private: number | null
  /** The first 140 characters of its content. */
  last_message_preview: string | null
  snoozed_until: string | null
  resolved_at: string | null
  created_at: string
  updated_at: string
}

/** Which conversation carries which tag: what the `tag` filter reads. */
export interface InboxConversationTagsTable {
  workspace_id: string
  mode: Mode
  conversation_id: string
  tag_id: string
  /** Lower-cased tag name, so the filter needs no join. */
  tag_key: string
}

export interface InboxMessagesTable {
  id: string
  workspace_id: string
  mode: Mode
  conversation_id: string
  direction: Direction
  author_type: AuthorType
  author_id: string | null
  content: string
  private: number
  /** JSON array of { url, filename, content_type, size_bytes }. */
  attachments: string
  /**
   * JSON { status, error_code, error_message, updated_at } of an outbound message sent through a channel
   * (SMS, WhatsApp), written by that channel through `messages.setDelivery`; null (or absent) otherwise.
   */
  delivery?: string | null
  created_at: string
}

export interface InboxAiDraftsTable {
  id: string
  workspace_id: string
  mode: Mode
  conversation_id: string
  content: string
  confidence: number | null
  grounded: number
  /** JSON array of citations. */
  sources: string
  provider: string
  model: string
  created_at: string
}

export interface InboxReplyTemplatesTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string
  /** Lower-cased name: uniqueness is case-insensitive. */
  name_key: string
  content: string
  shortcut: string | null
  language: string | null
  created_at: string
  updated_at: string
}

export interface InboxTagsTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string
  name_key: string
  color: string
  created_at: string
}

/** Where a member has read a conversation up to (per member, not an event). */
export interface InboxReadMarksTable {
  workspace_id: string
  mode: Mode
  conversation_id: string
  member_id: string
  last_read_message_id: string | null
  /** The conversation's inbound_count at the mark: unread = inbound_count − this, with no count of messages. */
  read_inbound_count: number
  last_read_at: string
}

/**
 * Full-text documents: one per message (its content) and one per conversation (subject, contact name and
 * email, `message_id` null). `rid` grows with insertion, so newest first is `rid desc`. SQLite indexes
 * them in the contentless FTS5 table `inbox_search_fts` (rowid = rid); PostgreSQL in `tsv` (GIN).
 */
export interface InboxSearchDocsTable {
  rid: Generated<number>
  workspace_id: string
  mode: Mode
  conversation_id: string
  message_id: string | null
  body: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    inbox_conversations: InboxConversationsTable
    inbox_conversation_tags: InboxConversationTagsTable
    inbox_messages: InboxMessagesTable
    inbox_ai_drafts: InboxAiDraftsTable
    inbox_reply_templates: InboxReplyTemplatesTable
    inbox_tags: InboxTagsTable
    inbox_read_marks: InboxReadMarksTable
    inbox_search_docs: InboxSearchDocsTable
  }
}
