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

declare module '../../kernel/db/database.js' {
  interface Tables {
    inbox_conversations: InboxConversationsTable
    inbox_conversation_tags: InboxConversationTagsTable
    inbox_messages: InboxMessagesTable
    inbox_ai_drafts: InboxAiDraftsTable
    inbox_reply_templates: InboxReplyTemplatesTable
    inbox_tags: InboxTagsTable
  }
}
