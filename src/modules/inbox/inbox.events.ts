import { defineEvents, type PayloadsOf } from '../../kernel/events/events.js'
import { AiDraft, Conversation, DeletedConversation, Message, type AiDraftT, type ConversationT, type MessageT } from './inbox.schemas.js'

// The inbox's entries in the event catalog. Every payload (`data.object`) is the full resource as it is
// after the change, in the 2.4.0 shape (lead_score as an object), whatever version a request pinned.

const conversation: ConversationT = {
  id: 'conv_01JD0000000000000000000000',
  object: 'conversation',
  status: 'open',
  channel: 'chat',
  subject: 'Question about plans',
  contact: { name: 'Ada Lovelace', email: 'ada@example.com', phone: null, external_id: 'crm-42' },
  assignee_id: 'mem_01JD0000000000000000000000',
  tags: ['sales'],
  lead_score: { score: 48, factors: ['+20 contact gave an email address', '+25 asked about pricing', '+3 1 inbound message (3 each, at most 15)'] },
  metadata: {},
  last_message_at: '2026-01-05T10:00:00.000Z',
  last_activity_at: '2026-01-05T10:00:00.000Z',
  last_message: {
    id: 'msg_01JD0000000000000000000000',
    direction: 'inbound',
    author: { type: 'contact', id: null },
    private: false,
    preview: 'How much is the Pro plan?',
    created_at: '2026-01-05T10:00:00.000Z',
  },
  unread_count: null,
  snoozed_until: null,
  resolved_at: null,
  created_at: '2026-01-05T10:00:00.000Z',
  updated_at: '2026-01-05T10:00:00.000Z',
}
const message: MessageT = {
  id: 'msg_01JD0000000000000000000000',
  object: 'message',
  conversation_id: conversation.id,
  direction: 'inbound',
  author: { type: 'contact', id: null },
  content: 'How much is the Pro plan?',
  private: false,
  attachments: [],
  delivery: null,
  created_at: '2026-01-05T10:00:00.000Z',
}
const draft: AiDraftT = {
  id: 'drf_01JD0000000000000000000000',
  object: 'ai_draft',
  conversation_id: conversation.id,
  content: 'Hi Ada, the Pro plan is 49 € per seat and month.',
  confidence: 0.82,
  grounded: true,
  sources: [{ kind: 'template', id: 'tpl_01JD0000000000000000000000', title: 'Pricing', excerpt: 'Hi {{contact.name}}, the Pro plan is 49 € per seat and month.', score: 1 }],
  provider: 'builtin',
  model: 'builtin-bm25',
  created_at: '2026-01-05T10:00:05.000Z',
}

const conv = (description: string, example: ConversationT = conversation) => ({ description, schema: Conversation, example })

export const INBOX_EVENTS = defineEvents(
  'inbox',
  { scope: 'conversations:read' },
  {
    'conversation.created': conv('A conversation was created (createConversation).'),
    'conversation.updated': conv('A conversation was changed by updateConversation, woken from snoozed by an inbound message, or its contact corrected by a rectification request.'),
    'conversation.assigned': conv('The assignee changed (assignConversation); assignee_id null means unassigned.'),
    'conversation.resolved': conv('The conversation became resolved (resolveConversation or updateConversation).', {
      ...conversation,
      status: 'resolved',
      resolved_at: '2026-01-05T11:00:00.000Z',
      updated_at: '2026-01-05T11:00:00.000Z',
    }),
    'conversation.reopened': conv('A resolved conversation became open again: explicitly, or because the contact wrote.'),
    'conversation.deleted': {
      description:
        'A conversation was deleted with its messages and drafts: by the `messages` retention policy, or by a data-subject erasure. Only the id is left; what channels kept for it (stored media and attachments, threading) goes after it.',
      schema: DeletedConversation,
      example: { id: conversation.id, object: 'conversation' as const, deleted: true as const },
    },
    'message.created': {
      description: 'A message or private note was added to a conversation (sendMessage, or the first message of createConversation).',
      schema: Message,
      example: message,
    },
    'message.updated': {
      description:
        'A message changed: its text, with personal data redacted in place (POST /compliance/pii-redaction with apply), or the `delivery` state of an outbound message a channel sends (SMS, WhatsApp).',
      schema: Message,
      example: { ...message, content: 'My card is [CARD_NUMBER], please call me at [PHONE].' },
    },
    'ai_draft.created': {
      description: 'An AI draft reply was generated (createAiDraft). Drafts are never sent by the service.',
      schema: AiDraft,
      example: draft,
    },
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof INBOX_EVENTS> {}
}
