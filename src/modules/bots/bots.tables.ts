import type { Mode } from '../../kernel/tenant.js'

export interface BotsTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string
  description: string | null
  // The draft configuration: what the next createBotVersion freezes. Customers talk to the published version.
  instructions: string
  language: string
  /** JSON array of inbox channels the bot answers on. */
  channels: string
  /** JSON array of kb_ ids. */
  knowledge_base_ids: string
  /** JSON BotHandoff. */
  handoff: string
  greeting: string | null
  /** JSON BotAiSettings. */
  ai: string
  /** JSON BotGuardrails (guardrails/guardrails.schemas.ts). */
  guardrails: string
  metadata: string
  /** sha256 of the draft's configuration, tools included: compared with the published version's. */
  draft_hash: string
  archived: number
  published_version_id: string | null
  published_at: string | null
  /** config_hash of the published version. */
  published_hash: string | null
  /** The last version number handed out (versions are numbered 1, 2, … per bot). */
  version_count: number
  created_at: string
  updated_at: string
}

/** A tool attached to the bot's draft; a version freezes a copy of each in its config. */
export interface BotToolsTable {
  id: string
  workspace_id: string
  mode: Mode
  bot_id: string
  type: 'http' | 'builtin'
  name: string
  description: string
  /** JSON Schema of the arguments (JSON text). */
  parameters: string
  url: string | null
  method: string | null
  /** Header values sealed with kernel.secrets (context: the tool id); names are visible, values never. */
  headers_sealed: string | null
  /** JSON array of the header names (shown in views; the values stay sealed). */
  header_names: string
  timeout_ms: number | null
  /** The secret tool calls are signed with (webhook scheme), sealed; http tools only. */
  signing_secret_sealed: string | null
  created_at: string
}

export interface BotVersionsTable {
  id: string
  workspace_id: string
  mode: Mode
  bot_id: string
  number: number
  note: string | null
  /** Who froze it: an API key (key_…) or, later, a member. */
  author_type: string
  author_id: string | null
  /** JSON FrozenConfig (bots.config.ts): never updated. */
  config: string
  config_hash: string
  created_at: string
}

/** One answer of a bot: what was asked, what it said, and why (citations, tools, guardrails, hand-off). */
export interface BotRepliesTable {
  id: string
  workspace_id: string
  mode: Mode
  bot_id: string
  version_id: string
  conversation_id: string
  inbound_message_id: string
  message_id: string
  content: string
  confidence: number | null
  grounded: number
  citations: string
  tool_calls: string
  guardrails: string
  /** JSON {reason, assignee_id, tag} or null. */
  handoff: string | null
  provider: string
  model: string
  created_at: string
  /** 1: a test exchange (bot-tests.service.ts), kept out of the inbox, events and integrations. */
  test: number
  /** The tester's message of a test exchange; null for inbox exchanges (the inbox holds it). */
  question: string | null
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    bots: BotsTable
    bot_tools: BotToolsTable
    bot_versions: BotVersionsTable
    bot_replies: BotRepliesTable
  }
}
