import { createHash } from 'node:crypto'
import { stringify } from 'safe-stable-stringify'
import { fromJson } from '../../kernel/db/database.js'
import { DEFAULT_GUARDRAILS, type BotGuardrailsT } from './guardrails/guardrails.schemas.js'
import type { BotAiSettingsT, BotHandoffT } from './bots.schemas.js'
import type { BotsTable, BotToolsTable } from './bots.tables.js'

// What a version freezes: the draft's configuration and a copy of each tool row (secrets stay sealed under
// the tool's id, so a frozen tool still opens them). The hash tells whether the draft differs from a version.

export const DEFAULT_HANDOFF: BotHandoffT = {
  confidence_threshold: 0.5,
  action: 'tag',
  assignee_id: null,
  tag: null,
}
export const DEFAULT_AI: BotAiSettingsT = { provider: null, temperature: null }
export const DEFAULT_INSTRUCTIONS = 'You are a helpful support assistant. Answer only from the knowledge you are given.'

export type FrozenTool = Omit<BotToolsTable, 'workspace_id' | 'mode' | 'bot_id'>

export interface BotConfig {
  instructions: string
  language: string
  channels: string[]
  knowledge_base_ids: string[]
  handoff: BotHandoffT
  greeting: string | null
  ai: BotAiSettingsT
  guardrails: BotGuardrailsT
  tools: FrozenTool[]
}

export function draftConfig(row: BotsTable, tools: BotToolsTable[]): BotConfig {
  return {
    instructions: row.instructions,
    language: row.language,
    channels: fromJson<string[]>(row.channels, ['chat']),
    knowledge_base_ids: fromJson<string[]>(row.knowledge_base_ids, []),
    handoff: { ...DEFAULT_HANDOFF, ...fromJson<Partial<BotHandoffT>>(row.handoff, {}) },
    greeting: row.greeting,
    ai: { ...DEFAULT_AI, ...fromJson<Partial<BotAiSettingsT>>(row.ai, {}) },
    guardrails: { ...DEFAULT_GUARDRAILS, ...fromJson<Partial<BotGuardrailsT>>(row.guardrails, {}) },
    tools: tools.map(frozenTool),
  }
}

export function frozenTool(t: BotToolsTable): FrozenTool {
  const { workspace_id: _w, mode: _m, bot_id: _b, ...rest } = t
  return rest
}

/** Tools count by id (they never change once attached): sealed values differ per sealing and are left out. */
export function configHash(c: BotConfig): string {
  const { tools, ...rest } = c
  return createHash('sha256')
    .update(stringify({ ...rest, tools: tools.map((t) => t.id) }) ?? '')
    .digest('hex')
}

/** The tool as an API response shows it: header names, never their values; never the signing secret. */
export function publicTool(t: FrozenTool): Record<string, unknown> {
  return {
    id: t.id,
    type: t.type,
    name: t.name,
    description: t.description,
    parameters: fromJson(t.parameters, {}),
    ...(t.type === 'http' ? { url: t.url, method: t.method, header_names: fromJson<string[]>(t.header_names, []), timeout_ms: t.timeout_ms === null ? null : Number(t.timeout_ms) } : {}),
  }
}
