import { Type, type Static } from 'typebox'
import { PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

/** Documented maximum of a message's `content`, in characters. */
export const MAX_MESSAGE_LENGTH = 10_000
export const MAX_ATTACHMENTS = 10
/** Placeholders a reply template may use; the engine fills them from the conversation. */
export const TEMPLATE_PLACEHOLDERS = ['contact.name', 'contact.email', 'contact.phone', 'conversation.subject'] as const

const ULID = '[0-9A-HJKMNP-TV-Z]{26}'
const DateTime = Type.String({ format: 'date-time' })

export const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  description: 'Up to 50 string key/value pairs (keys ≤ 40, values ≤ 500 characters).',
})

export const ConversationStatus = Type.Union([Type.Literal('open'), Type.Literal('pending'), Type.Literal('snoozed'), Type.Literal('resolved')], {
  title: 'ConversationStatus',
  description: 'State machine: see docs/inbox.md. resolved → open only (reopen); an inbound message reopens.',
})
export const Channel = Type.Union([Type.Literal('api'), Type.Literal('chat'), Type.Literal('email'), Type.Literal('sms'), Type.Literal('whatsapp'), Type.Literal('voice')], {
  title: 'ConversationChannel',
})

const ContactFields = {
  name: Nullable(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
  email: Nullable(Type.String({ format: 'email', maxLength: 254 })),
  phone: Nullable(Type.String({ pattern: '^\\+[1-9][0-9]{6,14}$', description: 'E.164, e.g. +4915112345678' })),
  external_id: Nullable(Type.String({ minLength: 1, maxLength: 200, description: 'Your id for the contact (CRM, chat widget).' })),
}
export const Contact = Type.Object(ContactFields, { $id: 'InboxContact' })
/** On input every contact field is optional; null clears it. */
export const ContactInput = Type.Partial(Type.Object(ContactFields), { additionalProperties: false, title: 'InboxContactInput' })

export const LeadScore = Type.Object(
  {
    score: Type.Number({ minimum: 0, maximum: 100 }),
    factors: Type.Array(Type.String({ maxLength: 200 }), { maxItems: 20, description: 'Why the score is what it is, one reason each.' }),
  },
  { $id: 'LeadScore', additionalProperties: false },
)
export type LeadScoreT = Static<typeof LeadScore>

/** Who wrote a message: also `agent` (an agent run posting its output), which API callers cannot claim. */
const MessageAuthorType = Type.Union([Type.Literal('contact'), Type.Literal('member'), Type.Literal('bot'), Type.Literal('agent'), Type.Literal('api_key')])

export const Conversation = Type.Object(
  {
    id: Type.String({ examples: ['conv_01JD0000000000000000000000'] }),
    object: Type.Literal('conversation'),
    status: ConversationStatus,
    channel: Channel,
    subject: Nullable(Type.String()),
    contact: Contact,
    assignee_id: Nullable(Type.String({ description: 'Member id (mem_…) of the assignee, or null.' })),
    tags: Type.Array(Type.String()),
    lead_score: Type.Union([LeadScore, Type.Number({ minimum: 0, maximum: 100 })], {
      description: '`{ score, factors }`. A request pinning `Svc-Api-Version` below 2.4.0 receives the plain number (until v3.0).',
    }),
    metadata: Metadata,
    last_message_at: Nullable(DateTime),
    last_activity_at: Type.String({ format: 'date-time', description: 'The newest message’s time, or the creation time: what `order=last_activity` sorts by.' }),
    last_message: Nullable(
      Type.Object(
        {
          id: Type.String(),
          direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
          author: Type.Object({ type: MessageAuthorType, id: Nullable(Type.String()) }),
          private: Type.Boolean(),
          preview: Type.String({ maxLength: 140, description: 'The first 140 characters of the content.' }),
          created_at: DateTime,
        },
        { title: 'ConversationLastMessage', description: 'The newest message or note (null before the first).' },
      ),
    ),
    unread_count: Nullable(
      Type.Integer({
        minimum: 0,
        description: 'For a member’s credential (dashboard session): inbound messages after the member’s read mark. null for API keys and in events.',
      }),
    ),
    snoozed_until: Nullable(DateTime),
    resolved_at: Nullable(DateTime),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Conversation' },
)
/** What `conversation.deleted` carries: the id alone, the content being gone. */
export const DeletedConversation = Type.Object({ id: Type.String(), object: Type.Literal('conversation'), deleted: Type.Literal(true) }, { $id: 'DeletedConversation' })

export type ConversationT = Static<typeof Conversation>

export const ConversationIdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) })

/** Documents (and validates) the version pin; read by the routes that return conversations. */
export const VersionHeaders = Type.Object({
  'svc-api-version': Type.Optional(
    Type.String({
      pattern: '^[0-9]{1,3}\\.[0-9]{1,3}\\.[0-9]{1,3}$',
      description: 'Pin the response shape to an API version, e.g. 2.3.4: before 2.4.0 `lead_score` is a plain number.',
    }),
  ),
})

export const ListConversationsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(ConversationStatus),
    assignee: Type.Optional(
      Type.String({ pattern: `^(mem_${ULID}|unassigned|me)$`, description: 'A member id (mem_…), `unassigned`, or `me` (the member behind a dashboard session; an API key → 422).' }),
    ),
    tag: Type.Optional(Type.String({ minLength: 1, maxLength: 50, description: 'Tag name, case-insensitive.' })),
    channel: Type.Optional(Channel),
    updated_after: Type.Optional(Type.String({ format: 'date-time', description: 'Only conversations updated strictly after this instant.' })),
    order: Type.Optional(
      Type.Union([Type.Literal('created'), Type.Literal('last_activity')], {
        default: 'created',
        description: '`created` = newest created first (default); `last_activity` = newest activity (message) first.',
      }),
    ),
    unread: Type.Optional(Type.Boolean({ description: 'true: only conversations with unread inbound messages (member credentials only).' })),
  },
  { additionalProperties: false },
)
export type ListConversationsQueryT = Static<typeof ListConversationsQuery>

const LeadScoreInput = Type.Union([LeadScore, Type.Number({ minimum: 0, maximum: 100 }), Type.Null()], {
  description: 'Manual override: `{ score, factors }` or a plain number (the pre-2.4.0 form, accepted until v3.0); null returns to the automatic score.',
})
const TagNames = Type.Array(Type.String({ minLength: 1, maxLength: 50 }), { maxItems: 20, description: 'Names of tags created with createInboxTag.' })

export const AttachmentInput = Type.Object(
  {
    url: Type.String({ format: 'uri', pattern: '^https?://', maxLength: 2048 }),
    filename: Type.Optional(Type.String({ minLength: 1, maxLength: 255 })),
    content_type: Type.Optional(Type.String({ pattern: '^[a-z]+/[a-zA-Z0-9.+_-]+$', maxLength: 100 })),
    size_bytes: Type.Optional(Type.Integer({ minimum: 0 })),
  },
  { additionalProperties: false, title: 'MessageAttachmentInput' },
)
export const Attachment = Type.Object(
  {
    url: Type.String(),
    filename: Nullable(Type.String()),
    content_type: Nullable(Type.String()),
    size_bytes: Nullable(Type.Integer()),
  },
  { title: 'MessageAttachment' },
)

const AuthorType = Type.Union([Type.Literal('contact'), Type.Literal('member'), Type.Literal('bot'), Type.Literal('api_key')])

const messageBody = (defaultDirection: 'inbound' | 'outbound', title: string) =>
  Type.Object(
    {
      content: Type.String({
        minLength: 1,
        maxLength: MAX_MESSAGE_LENGTH,
        pattern: '\\S',
        description: `The text, 1–${MAX_MESSAGE_LENGTH} characters, not only whitespace.`,
      }),
      direction: Type.Optional(
        Type.Union([Type.Literal('inbound'), Type.Literal('outbound')], {
          default: defaultDirection,
          description: `inbound = from the contact, outbound = to the contact (default ${defaultDirection}).`,
        }),
      ),
      author: Type.Optional(
        Type.Object(
          {
            type: AuthorType,
            id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Member id for `member`, bot id for `bot`.' })),
          },
          { additionalProperties: false, description: 'Defaults: the contact for inbound, this API key for outbound.' },
        ),
      ),
      private: Type.Optional(Type.Boolean({ default: false, description: 'A private note: visible to the team only, never sent. Outbound only.' })),
      attachments: Type.Optional(Type.Array(AttachmentInput, { maxItems: MAX_ATTACHMENTS })),
    },
    { additionalProperties: false, title },
  )

export const SendMessageBody = messageBody('outbound', 'SendMessageBody')
export type SendMessageBodyT = Static<typeof SendMessageBody>

export const MESSAGE_DELIVERY_STATUSES = ['queued', 'sent', 'delivered', 'read', 'failed', 'undelivered'] as const
export const MessageDelivery = Type.Object(
  {
    status: Type.Unsafe<(typeof MESSAGE_DELIVERY_STATUSES)[number]>({ type: 'string', enum: [...MESSAGE_DELIVERY_STATUSES], title: 'MessageDeliveryStatus' }),
    error_code: Nullable(Type.String({ description: "Why it failed: the provider's error code (Twilio 30003…), `opted_out`, `outcome_unknown`, `channel_deleted`." })),
    error_message: Nullable(Type.String()),
    updated_at: DateTime,
  },
  {
    title: 'MessageDelivery',
    description:
      'How far an outbound message sent through a channel (SMS, WhatsApp, web chat, email) got: queued → sent → delivered → read (a web chat visitor saw it), or failed / undelivered (docs/channels.md).',
  },
)
export type MessageDeliveryT = Static<typeof MessageDelivery>

export const Message = Type.Object(
  {
    id: Type.String({ examples: ['msg_01JD0000000000000000000000'] }),
    object: Type.Literal('message'),
    conversation_id: Type.String(),
    direction: Type.Union([Type.Literal('inbound'), Type.Literal('outbound')]),
    author: Type.Object({ type: MessageAuthorType, id: Nullable(Type.String()) }),
    content: Type.String(),
    private: Type.Boolean(),
    attachments: Type.Array(Attachment),
    delivery: Nullable(MessageDelivery),
    created_at: DateTime,
  },
  { $id: 'Message' },
)
export type MessageT = Static<typeof Message>

export const ListMessagesQuery = Type.Object(
  {
    ...PageQuery,
    order: Type.Optional(Type.Union([Type.Literal('desc'), Type.Literal('asc')], { default: 'desc', description: '`desc` = newest first (default), `asc` = oldest first.' })),
  },
  { additionalProperties: false },
)

export const CreateConversationBody = Type.Object(
  {
    channel: Type.Optional(Channel),
    status: Type.Optional(Type.Union([Type.Literal('open'), Type.Literal('pending')], { default: 'open' })),
    subject: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 300 }))),
    contact: Type.Optional(ContactInput),
    assignee_id: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 64 }))),
    tags: Type.Optional(TagNames),
    metadata: Type.Optional(Metadata),
    // A first message, usually the contact's: its direction defaults to inbound.
    message: Type.Optional(messageBody('inbound', 'FirstMessageInput')),
  },
  { additionalProperties: false, title: 'CreateConversationBody' },
)
export type CreateConversationBodyT = Static<typeof CreateConversationBody>

export const UpdateConversationBody = Type.Object(
  {
    status: Type.Optional(ConversationStatus),
    snoozed_until: Type.Optional(Nullable(Type.String({ format: 'date-time', description: 'Only with status snoozed.' }))),
    subject: Type.Optional(Nullable(Type.String({ minLength: 1, maxLength: 300 }))),
    contact: Type.Optional(ContactInput),
    tags: Type.Optional(TagNames),
    metadata: Type.Optional(Metadata),
    lead_score: Type.Optional(LeadScoreInput),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateConversationBody' },
)
export type UpdateConversationBodyT = Static<typeof UpdateConversationBody>

export const AssignConversationBody = Type.Object(
  { assignee_id: Nullable(Type.String({ minLength: 1, maxLength: 64, description: 'An active member (mem_…), or null to unassign.' })) },
  { additionalProperties: false, title: 'AssignConversationBody' },
)

export const CreateAiDraftBody = Type.Object(
  { instructions: Type.Optional(Type.String({ minLength: 1, maxLength: 2000, description: 'Extra guidance for the engine (tone, language).' })) },
  { additionalProperties: false, title: 'CreateAiDraftBody' },
)

export const Citation = Type.Object(
  {
    kind: Type.Union([Type.Literal('template'), Type.Literal('message'), Type.Literal('passage')]),
    id: Type.String(),
    title: Nullable(Type.String()),
    excerpt: Type.String(),
    score: Type.Number({ minimum: 0, maximum: 1 }),
  },
  { title: 'AiDraftSource' },
)

export const AiDraft = Type.Object(
  {
    id: Type.String({ examples: ['drf_01JD0000000000000000000000'] }),
    object: Type.Literal('ai_draft'),
    conversation_id: Type.String(),
    content: Type.String(),
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1, description: 'null when the provider gives no estimate (openai).' })),
    grounded: Type.Boolean({ description: 'False when nothing matched and the content says so instead of answering.' }),
    sources: Type.Array(Citation),
    provider: Type.String(),
    model: Type.String(),
    created_at: DateTime,
  },
  { $id: 'AiDraft' },
)
export type AiDraftT = Static<typeof AiDraft>

export const ReplyTemplate = Type.Object(
  {
    id: Type.String({ examples: ['tpl_01JD0000000000000000000000'] }),
    object: Type.Literal('reply_template'),
    name: Type.String(),
    content: Type.String(),
    placeholders: Type.Array(Type.String(), { description: 'Placeholders used in content, e.g. contact.name.' }),
    shortcut: Nullable(Type.String()),
    language: Nullable(Type.String()),
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'ReplyTemplate' },
)
export type ReplyTemplateT = Static<typeof ReplyTemplate>

export const CreateReplyTemplateBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 100, pattern: '^\\S(.*\\S)?$', description: 'Unique in the workspace, case-insensitively.' }),
    content: Type.String({
      minLength: 1,
      maxLength: 5000,
      pattern: '\\S',
      description: `May use placeholders: ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}.`,
    }),
    shortcut: Type.Optional(Type.String({ pattern: '^[a-z0-9_-]{1,32}$', description: 'Unique in the workspace, e.g. `pricing`.' })),
    language: Type.Optional(Type.String({ pattern: '^[a-zA-Z]{2,3}(-[a-zA-Z0-9]{2,8})*$', description: 'BCP 47, e.g. en or pt-BR' })),
  },
  { additionalProperties: false, title: 'CreateReplyTemplateBody' },
)
export type CreateReplyTemplateBodyT = Static<typeof CreateReplyTemplateBody>

export const InboxTag = Type.Object(
  {
    id: Type.String({ examples: ['tag_01JD0000000000000000000000'] }),
    object: Type.Literal('inbox_tag'),
    name: Type.String(),
    color: Type.String(),
    created_at: DateTime,
  },
  { $id: 'InboxTag' },
)
export type InboxTagT = Static<typeof InboxTag>

export const CreateInboxTagBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 50, pattern: '^\\S(.*\\S)?$', description: 'Unique in the workspace, case-insensitively.' }),
    color: Type.Optional(Type.String({ pattern: '^#[0-9a-fA-F]{6}$', default: '#6b7280', description: 'Hex colour, e.g. #22c55e.' })),
  },
  { additionalProperties: false, title: 'CreateInboxTagBody' },
)

export const SimpleListQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const MarkConversationReadBody = Type.Object(
  { message_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Read up to and including this message (default: the newest).' })) },
  { additionalProperties: false, title: 'MarkConversationReadBody' },
)

export const SnoozeConversationBody = Type.Object(
  { until: Type.String({ format: 'date-time', description: 'When it wakes (→ open), RFC 3339, in the future (at most a year ahead).' }) },
  { additionalProperties: false, title: 'SnoozeConversationBody' },
)

export const InboxCounts = Type.Object(
  {
    object: Type.Literal('inbox_counts'),
    open: Type.Integer({ minimum: 0, description: 'Open conversations.' }),
    mine: Type.Integer({ minimum: 0, description: 'Open conversations assigned to the member.' }),
    unassigned: Type.Integer({ minimum: 0, description: 'Open conversations assigned to nobody.' }),
    unread: Type.Integer({ minimum: 0, description: 'Open conversations with inbound messages after the member’s read mark.' }),
    mine_unread: Type.Integer({ minimum: 0, description: 'Of those, the ones assigned to the member.' }),
    capped_at: Type.Integer({ description: 'Counts stop at this number (show it as “100+”): a count reads at most this many index entries.' }),
  },
  { $id: 'InboxCounts' },
)
export type InboxCountsT = Static<typeof InboxCounts>

export const SearchInboxQuery = Type.Object(
  {
    ...PageQuery,
    q: Type.String({ minLength: 1, maxLength: 200, description: 'Words to find (all of them; the last one also as a prefix), in subjects, contacts (name, e-mail) and messages.' }),
  },
  { additionalProperties: false },
)

export const InboxSearchResult = Type.Object(
  {
    object: Type.Literal('inbox_search_result'),
    conversation: Conversation,
    message: Nullable(Message),
    snippet: Type.String({ description: 'Words around the first match, HTML-escaped, each matching word in <mark>…</mark>.' }),
  },
  { $id: 'InboxSearchResult' },
)
export type InboxSearchResultT = Static<typeof InboxSearchResult>
