import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'
import { Channel, ContactInput, Metadata } from '../inbox/inbox.schemas.js'
import { KnowledgeSearchResult } from '../knowledge/knowledge.search.schemas.js'
import { BotGuardrails } from './guardrails/guardrails.schemas.js'

const DateTime = Type.String({ format: 'date-time' })
export const MAX_KNOWLEDGE_BASES = 10

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })
export const VersionParams = Type.Object(
  {
    id: Type.String({ minLength: 1, maxLength: 64 }),
    run_id: Type.String({ minLength: 1, maxLength: 64, description: 'The version id (bver_…): the spec names this path parameter run_id.' }),
  },
  { additionalProperties: false },
)

export const BotHandoff = Type.Object(
  {
    confidence_threshold: Type.Number({
      minimum: 0,
      maximum: 1,
      description: "A reply whose confidence is below this is handed to a human with the guardrails' fallback_message. Default 0.5.",
    }),
    action: Type.Union([Type.Literal('assign'), Type.Literal('tag')], {
      description: '`assign`: the conversation is assigned to `assignee_id`; `tag`: it stays unassigned and gets `tag`. Default `tag`.',
    }),
    assignee_id: Nullable(Type.String({ maxLength: 64, description: 'An active member (mem_…); required for `assign`.' })),
    tag: Nullable(Type.String({ minLength: 1, maxLength: 50, description: 'An existing inbox tag added on hand-off (with either action). Default none.' })),
  },
  { additionalProperties: false, title: 'BotHandoff' },
)
export type BotHandoffT = Static<typeof BotHandoff>

export const BotAiSettings = Type.Object(
  {
    provider: Nullable(Type.Union([Type.Literal('builtin'), Type.Literal('openai')], { description: 'Overrides AI_PROVIDER for this bot; null = the configured one.' })),
    temperature: Nullable(Type.Number({ minimum: 0, maximum: 2, description: 'Sampling temperature (openai); null = the provider default.' })),
  },
  { additionalProperties: false, title: 'BotAiSettings' },
)
export type BotAiSettingsT = Static<typeof BotAiSettings>

const Language = Type.String({ pattern: '^[a-z]{2}$', description: 'ISO 639-1 code the bot answers in (default `en`).' })
const Channels = Type.Array(Channel, {
  minItems: 1,
  maxItems: 6,
  uniqueItems: true,
  description: 'Inbox channels the bot answers on; the first is used for conversations it starts. Default `["chat"]`.',
})
const KnowledgeBaseIds = Type.Array(Type.String({ minLength: 1, maxLength: 64 }), {
  maxItems: MAX_KNOWLEDGE_BASES,
  uniqueItems: true,
  description: 'Knowledge bases (kb_…) the bot answers from; each must exist in the workspace.',
})

const configFields = {
  instructions: Type.String({ maxLength: 8000, description: 'Persona and rules, given to the AI engine with every message.' }),
  language: Language,
  channels: Channels,
  knowledge_base_ids: KnowledgeBaseIds,
  handoff: BotHandoff,
  greeting: Nullable(Type.String({ maxLength: 1000, description: 'First words of the bot in a conversation it starts.' })),
  ai: BotAiSettings,
}

export const BotStatus = Type.Union([Type.Literal('draft'), Type.Literal('published'), Type.Literal('archived')], {
  title: 'BotStatus',
  description: '`draft`: never published; `published`: customers talk to `published_version_id`; `archived`: answers nothing (see docs/bots.md).',
})

export const Bot = Type.Object(
  {
    id: Type.String({ examples: ['bot_01JD0000000000000000000000'] }),
    object: Type.Literal('bot'),
    name: Type.String(),
    description: Nullable(Type.String()),
    ...configFields,
    status: BotStatus,
    published_version_id: Nullable(Type.String()),
    published_at: Nullable(DateTime),
    version_count: Type.Integer({ description: 'Versions frozen so far (numbered 1, 2, …).' }),
    has_unpublished_changes: Type.Boolean({ description: 'The draft (configuration, guardrails, tools) differs from the published version.' }),
    metadata: Metadata,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'Bot' },
)
export type BotT = Static<typeof Bot>

const HandoffInput = Type.Partial(BotHandoff, { additionalProperties: false, title: 'BotHandoffInput' })
const AiInput = Type.Partial(BotAiSettings, { additionalProperties: false, title: 'BotAiSettingsInput' })

/** What both createBot and updateBot take besides the name. */
const botInputFields = {
  description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
  instructions: Type.Optional(configFields.instructions),
  language: Type.Optional(Language),
  channels: Type.Optional(Channels),
  knowledge_base_ids: Type.Optional(KnowledgeBaseIds),
  handoff: Type.Optional(HandoffInput),
  greeting: Type.Optional(configFields.greeting),
  ai: Type.Optional(AiInput),
  metadata: Type.Optional(Metadata),
}

export const CreateBotBody = Type.Object({ name: Type.String({ minLength: 1, maxLength: 200 }), ...botInputFields }, { additionalProperties: false, title: 'CreateBotBody' })
export type CreateBotBodyT = Static<typeof CreateBotBody>

export const UpdateBotBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    ...botInputFields,
    archived: Type.Optional(Type.Boolean({ description: '`true` archives the bot (it stops answering; versions and history stay); `false` brings it back.' })),
  },
  { additionalProperties: false, minProperties: 1, title: 'UpdateBotBody' },
)
export type UpdateBotBodyT = Static<typeof UpdateBotBody>

export const BotList = Page(Bot, 'Bot')
export const ListBotsQuery = Type.Object({ ...PageQuery, status: Type.Optional(BotStatus) }, { additionalProperties: false })

export const DeletedBot = Type.Object({ id: Type.String(), object: Type.Literal('bot'), deleted: Type.Literal(true) }, { title: 'DeletedBot' })

export const BotVersion = Type.Object(
  {
    id: Type.String({ examples: ['bver_01JD0000000000000000000000'] }),
    object: Type.Literal('bot_version'),
    bot_id: Type.String(),
    number: Type.Integer({ minimum: 1 }),
    note: Nullable(Type.String()),
    author: Type.Object({ type: Type.String(), id: Nullable(Type.String()) }, { description: 'Who froze it: `api_key` and its id, later a member.' }),
    live: Type.Boolean({ description: 'This is the version customers talk to now.' }),
    config: Type.Object(
      {
        ...configFields,
        guardrails: Type.Object({}, { additionalProperties: true, description: 'The guardrails as frozen (see BotGuardrails).' }),
        tools: Type.Array(Type.Object({}, { additionalProperties: true }), { description: 'The tools as frozen (secrets never shown).' }),
      },
      { description: 'The frozen configuration: never changes.' },
    ),
    created_at: DateTime,
  },
  { $id: 'BotVersion' },
)
export type BotVersionT = Static<typeof BotVersion>
export const BotVersionList = Page(BotVersion, 'BotVersion')
export const ListBotVersionsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const CreateBotVersionBody = Type.Object(
  { note: Type.Optional(Type.String({ maxLength: 500, description: 'What changed, for whoever reads the history.' })) },
  { additionalProperties: false, title: 'CreateBotVersionBody' },
)
export const PublishBotBody = Type.Object(
  {
    version_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'The version to make live; default the latest (a first version is frozen from the draft when none exists).' })),
  },
  { additionalProperties: false, title: 'PublishBotBody' },
)
export const CloneBotBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Default: "<name> (copy)".' })),
    version_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Clone this version instead of the draft.' })),
  },
  { additionalProperties: false, title: 'CloneBotBody' },
)

export const SendBotMessageBody = Type.Object(
  {
    content: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S', description: "The customer's message." }),
    conversation_id: Type.Optional(
      Type.String({ minLength: 1, maxLength: 64, description: 'An inbox conversation to continue (a test conversation, `btest_…`, for a test exchange); default a new one.' }),
    ),
    channel: Type.Optional(Channel),
    contact: Type.Optional(ContactInput),
    version_id: Type.Optional(Type.String({ minLength: 1, maxLength: 64, description: 'Answer with this version instead of the published one (testing an unpublished version).' })),
    test: Type.Optional(
      Type.Boolean({
        description:
          'A test exchange: kept with the bot (read it back with GET /bots/{id}/test-conversations/{conversation_id}), never written to the ' +
          'inbox, no events, webhooks or integrations. Default: true when `version_id` is given, else false.',
      }),
    ),
  },
  { additionalProperties: false, title: 'SendBotMessageBody' },
)
export type SendBotMessageBodyT = Static<typeof SendBotMessageBody>

export const BotToolCall = Type.Object(
  {
    call_id: Type.String(),
    name: Type.String(),
    arguments: Type.Object({}, { additionalProperties: true }),
    ok: Type.Boolean(),
    status: Nullable(Type.Integer({ description: 'HTTP status of the tool server (http tools).' })),
    output: Type.Unknown({ description: 'What the tool returned (JSON when it answered JSON).' }),
    error: Nullable(Type.Object({ code: Type.String(), detail: Type.String() })),
    duration_ms: Type.Integer(),
  },
  { title: 'BotToolCall' },
)

export const BotGuardrailFired = Type.Object(
  {
    guardrail: Type.String(),
    stage: Type.Union([Type.Literal('input'), Type.Literal('output')]),
    action: Type.String({ description: 'blocked, masked, replaced, truncated, handoff or flagged.' }),
    detail: Type.String(),
  },
  { title: 'BotGuardrailFired' },
)

export const BotReply = Type.Object(
  {
    id: Type.String({ examples: ['brep_01JD0000000000000000000000'] }),
    object: Type.Literal('bot_reply'),
    bot_id: Type.String(),
    version_id: Type.String({ description: 'The bot version that answered.' }),
    conversation_id: Type.String({ description: 'The inbox conversation; for a test exchange the test conversation (`btest_…`).' }),
    inbound_message_id: Type.String({ description: "The customer's message as written to the inbox (a test exchange's own id, `btmsg_…`)." }),
    message_id: Type.String({ description: "The bot's reply as written to the inbox (a test exchange's own id, `btmsg_…`)." }),
    test: Type.Boolean({ description: 'A test exchange: nothing was written to the inbox and no event was sent.' }),
    content: Type.String(),
    citations: Type.Array(KnowledgeSearchResult, { description: 'The knowledge passages the reply stands on, as POST /knowledge/search returns them.' }),
    confidence: Nullable(Type.Number({ minimum: 0, maximum: 1 })),
    grounded: Type.Boolean({ description: 'The reply rests on knowledge passages or a tool result.' }),
    tool_calls: Type.Array(BotToolCall),
    guardrails: Type.Array(BotGuardrailFired, { description: 'Guardrails that fired on the message or the reply, and what they did.' }),
    handoff: Type.Boolean({ description: 'The conversation was handed to a human.' }),
    handoff_reason: Nullable(Type.String()),
    ai: Type.Object({ provider: Type.String(), model: Type.String() }),
    created_at: DateTime,
  },
  { $id: 'BotReply' },
)
export type BotReplyT = Static<typeof BotReply>

export const BotMessageStreamEvent = Type.Object(
  {
    text: Type.Optional(Type.String({ description: '`delta`: the next piece of the reply.' })),
    reply: Type.Optional(BotReply),
  },
  { $id: 'BotMessageStreamEvent', description: '`delta`: {text}; `message`: {reply}; `error`: a problem.' },
)

export const TestConversationParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 64 }), conversation_id: Type.String({ minLength: 1, maxLength: 64 }) }, { additionalProperties: false })

export const BotTestConversation = Type.Object(
  {
    id: Type.String({ examples: ['btest_01JD0000000000000000000000'] }),
    object: Type.Literal('bot_test_conversation'),
    bot_id: Type.String(),
    turns: Type.Array(
      Type.Object({
        message: Type.Object({ id: Type.String(), content: Type.String({ description: "The tester's message." }), created_at: DateTime }),
        reply: BotReply,
      }),
      { description: 'Oldest first.' },
    ),
    created_at: DateTime,
  },
  { $id: 'BotTestConversation' },
)
export type BotTestConversationT = Static<typeof BotTestConversation>

const toolFields = {
  id: Type.String({ examples: ['tool_01JD0000000000000000000000'] }),
  object: Type.Literal('bot_tool'),
  bot_id: Type.String(),
  type: Type.Union([Type.Literal('http'), Type.Literal('builtin')]),
  name: Type.String(),
  description: Type.String(),
  parameters: Type.Object({}, { additionalProperties: true, description: 'JSON Schema of the arguments.' }),
  url: Type.Optional(Nullable(Type.String())),
  method: Type.Optional(Nullable(Type.String())),
  header_names: Type.Optional(Type.Array(Type.String(), { description: 'Headers sent with each call; their values are stored encrypted and never shown.' })),
  timeout_ms: Type.Optional(Nullable(Type.Integer())),
  created_at: DateTime,
}
export const BotTool = Type.Object(toolFields, { $id: 'BotTool' })
export type BotToolT = Static<typeof BotTool>
export const AttachedBotTool = Type.Object(
  {
    ...toolFields,
    signing_secret: Nullable(Type.String({ description: 'http tools: the secret each call is signed with (webhook scheme, docs/tools.md). Shown once, here.' })),
  },
  { $id: 'AttachedBotTool' },
)
export const BotToolList = Page(BotTool, 'BotTool')
export const ListBotToolsQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const BotGuardrailsSettings = Type.Object(
  {
    object: Type.Literal('bot_guardrails'),
    bot_id: Type.String(),
    ...BotGuardrails.properties,
  },
  { $id: 'BotGuardrailsSettings', description: "The draft's guardrails (a version freezes them); enforced on every message and reply (docs/bots.md)." },
)
export type BotGuardrailsSettingsT = Static<typeof BotGuardrailsSettings>
