import { fromJson } from '../../kernel/db/database.js'
import { draftConfig, publicTool, type BotConfig } from './bots.config.js'
import type { BotReplyT, BotT, BotToolT, BotVersionT } from './bots.schemas.js'
import type { BotRepliesTable, BotsTable, BotToolsTable, BotVersionsTable } from './bots.tables.js'

// Pure row → resource mappers (the API's and the events' shapes).

export const botStatus = (r: Pick<BotsTable, 'archived' | 'published_version_id'>): BotT['status'] => (Number(r.archived) === 1 ? 'archived' : r.published_version_id ? 'published' : 'draft')

export function botView(r: BotsTable): BotT {
  const c = draftConfig(r, [])
  return {
    id: r.id,
    object: 'bot',
    name: r.name,
    description: r.description,
    instructions: c.instructions,
    language: c.language,
    channels: c.channels as BotT['channels'],
    knowledge_base_ids: c.knowledge_base_ids,
    handoff: c.handoff,
    greeting: c.greeting,
    ai: c.ai,
    status: botStatus(r),
    published_version_id: r.published_version_id,
    published_at: r.published_at,
    version_count: Number(r.version_count),
    has_unpublished_changes: r.published_version_id !== null && r.draft_hash !== r.published_hash,
    metadata: fromJson(r.metadata, {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export function versionView(r: BotVersionsTable, liveVersionId: string | null): BotVersionT {
  const c = fromJson<BotConfig>(r.config, null as unknown as BotConfig)
  return {
    id: r.id,
    object: 'bot_version',
    bot_id: r.bot_id,
    number: Number(r.number),
    note: r.note,
    author: { type: r.author_type, id: r.author_id },
    live: r.id === liveVersionId,
    config: {
      instructions: c.instructions,
      language: c.language,
      channels: c.channels as BotT['channels'],
      knowledge_base_ids: c.knowledge_base_ids,
      handoff: c.handoff,
      greeting: c.greeting,
      ai: c.ai,
      guardrails: c.guardrails as unknown as Record<string, never>,
      tools: c.tools.map(publicTool) as Record<string, never>[],
    },
    created_at: r.created_at,
  }
}

export function toolView(t: BotToolsTable): BotToolT {
  return { ...(publicTool(t) as Omit<BotToolT, 'object' | 'bot_id' | 'created_at'>), object: 'bot_tool', bot_id: t.bot_id, created_at: t.created_at }
}

export function replyView(r: BotRepliesTable): BotReplyT {
  const handoff = fromJson<{ reason: string } | null>(r.handoff, null)
  return {
    id: r.id,
    object: 'bot_reply',
    bot_id: r.bot_id,
    version_id: r.version_id,
    conversation_id: r.conversation_id,
    inbound_message_id: r.inbound_message_id,
    message_id: r.message_id,
    test: Number(r.test) === 1,
    content: r.content,
    citations: fromJson(r.citations, []),
    confidence: r.confidence === null ? null : Number(r.confidence),
    grounded: Number(r.grounded) === 1,
    tool_calls: fromJson(r.tool_calls, []),
    guardrails: fromJson(r.guardrails, []),
    handoff: handoff !== null,
    handoff_reason: handoff?.reason ?? null,
    ai: { provider: r.provider, model: r.model },
    created_at: r.created_at,
  }
}

export const deletedBotView = (id: string) => ({ id, object: 'bot' as const, deleted: true as const })
