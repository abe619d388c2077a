import { Type, type Static } from 'typebox'
import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { Nullable } from '../../kernel/http/schemas.js'
import { Bot, BotReply, BotVersion, type BotReplyT, type BotT, type BotVersionT } from './bots.schemas.js'

export const BOT_EXAMPLE: BotT = {
  id: 'bot_01JD0000000000000000000000',
  object: 'bot',
  name: 'Support bot',
  description: 'Answers order and refund questions',
  instructions: 'You are the support assistant of Example Shop. Be brief and friendly.',
  language: 'en',
  channels: ['chat'],
  knowledge_base_ids: ['kb_01JD0000000000000000000000'],
  handoff: { confidence_threshold: 0.5, action: 'tag', assignee_id: null, tag: 'needs-human' },
  greeting: 'Hi! How can I help?',
  ai: { provider: null, temperature: null },
  status: 'published',
  published_version_id: 'bver_01JD0000000000000000000000',
  published_at: '2026-11-26T10:00:00.000Z',
  version_count: 1,
  has_unpublished_changes: false,
  metadata: {},
  created_at: '2026-11-26T09:00:00.000Z',
  updated_at: '2026-11-26T10:00:00.000Z',
}

const {
  id: _id,
  object: _o,
  name: _n,
  description: _d,
  status: _s,
  published_version_id: _p,
  published_at: _pa,
  version_count: _vc,
  has_unpublished_changes: _h,
  metadata: _m,
  created_at: _c,
  updated_at: _u,
  ...EXAMPLE_CONFIG
} = BOT_EXAMPLE

const VERSION_EXAMPLE: BotVersionT = {
  id: 'bver_01JD0000000000000000000000',
  object: 'bot_version',
  bot_id: BOT_EXAMPLE.id,
  number: 1,
  note: 'First release',
  author: { type: 'api_key', id: 'key_01JD0000000000000000000000' },
  live: true,
  config: { ...EXAMPLE_CONFIG, guardrails: {}, tools: [] },
  created_at: '2026-11-26T10:00:00.000Z',
}

export const BotPublication = Type.Object(
  {
    object: Type.Literal('bot_publication'),
    bot_id: Type.String(),
    version_id: Type.String({ description: 'The version now live.' }),
    version_number: Type.Integer(),
    previous_version_id: Nullable(Type.String({ description: 'The version live before, or null.' })),
    bot: Bot,
  },
  { $id: 'BotPublication' },
)
export type BotPublicationT = Static<typeof BotPublication>

const PUBLICATION_EXAMPLE: BotPublicationT = {
  object: 'bot_publication',
  bot_id: BOT_EXAMPLE.id,
  version_id: VERSION_EXAMPLE.id,
  version_number: 1,
  previous_version_id: null,
  bot: BOT_EXAMPLE,
}

const REPLY_EXAMPLE: BotReplyT = {
  id: 'brep_01JD0000000000000000000000',
  object: 'bot_reply',
  bot_id: BOT_EXAMPLE.id,
  version_id: VERSION_EXAMPLE.id,
  conversation_id: 'conv_01JD0000000000000000000000',
  inbound_message_id: 'msg_01JD0000000000000000000001',
  message_id: 'msg_01JD0000000000000000000002',
  test: false,
  content: 'Let me bring in a colleague who can help.',
  citations: [],
  confidence: 0,
  grounded: false,
  tool_calls: [],
  guardrails: [],
  handoff: true,
  handoff_reason: 'Nothing in the knowledge answers this question.',
  ai: { provider: 'builtin', model: 'builtin-bm25' },
  created_at: '2026-11-26T10:05:00.000Z',
}

/** Every event type of the bots module. */
export const BOTS_EVENTS = defineEvents(
  'bots',
  { scope: 'bots:read' },
  {
    'bot.created': eventType({
      description: 'A bot was created (or cloned): a draft nobody talks to yet.',
      schema: Bot,
      example: { ...BOT_EXAMPLE, status: 'draft', published_version_id: null, published_at: null, version_count: 0 },
    }),
    'bot.updated': eventType({
      description: "A bot's draft, name or archived state changed (customers keep the published version).",
      schema: Bot,
      example: { ...BOT_EXAMPLE, has_unpublished_changes: true },
    }),
    'bot.deleted': eventType({
      description: 'A bot was deleted with its versions and tools; its messages stay in the inbox.',
      schema: Type.Object({ id: Type.String(), object: Type.Literal('bot'), deleted: Type.Literal(true) }),
      example: { id: BOT_EXAMPLE.id, object: 'bot', deleted: true },
    }),
    'bot_version.created': eventType({ description: "The bot's draft was frozen into a new immutable version.", schema: BotVersion, example: { ...VERSION_EXAMPLE, live: false } }),
    'bot.published': eventType({ description: 'A version became live: customers talk to it from now on.', schema: BotPublication, example: PUBLICATION_EXAMPLE }),
    'bot.rolled_back': eventType({
      description: 'An earlier version became live again (history is kept; the rolled-back version can be published again).',
      schema: BotPublication,
      example: { ...PUBLICATION_EXAMPLE, version_id: 'bver_01JD0000000000000000000001', previous_version_id: 'bver_01JD0000000000000000000002' },
    }),
    'bot.handoff': eventType({
      description: 'A bot handed a conversation to a human (low confidence, not grounded, a guardrail or the hand-off tool): it is assigned or tagged.',
      schema: BotReply,
      example: REPLY_EXAMPLE,
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof BOTS_EVENTS> {}
}
