import type { AiEngine, AiSource, AiStep, AiTurn, ToolResultInput } from '../../kernel/ai/ai.js'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { callIdempotencyKey, callTool, toolSpecOf, type StoredTool, type ToolCallResult } from '../../kernel/tools/tools.js'
import type { GuardrailFired } from './guardrails/guardrails.js'
import { checkInput, checkOutput } from './guardrails/guardrails.js'
import type { BotConfig, FrozenTool } from './bots.config.js'
import { isAnswered, searchResultOf, type KnowledgeSearchResultT } from '../knowledge/knowledge.search.schemas.js'

/** Engine steps per reply: a tool round, maybe a second, then the answer. */
const MAX_STEPS = 3
/** Tool calls run per step (the rest are reported as skipped). */
const MAX_CALLS_PER_STEP = 3
/** Knowledge passages retrieved for the question and offered to the engine. */
const PASSAGES = 5

export type HandoffReason = 'not_grounded' | 'low_confidence' | 'guardrail' | 'requested' | 'ai_error'

export interface TurnInput {
  tenant: Tenant
  botId: string
  config: BotConfig
  engine: AiEngine
  /** Earlier turns of the conversation (oldest first) and the customer's new message last. */
  transcript: AiTurn[]
  question: string
  /** Where tool-call idempotency keys come from: the request's Idempotency-Key, else the reply id. */
  scope: string
  conversationId: string | null
  /** A test exchange (bot-tests.ts): its question is not recorded as a knowledge gap. */
  test?: boolean
}

export interface TurnOutcome {
  content: string
  citations: KnowledgeSearchResultT[]
  confidence: number | null
  grounded: boolean
  toolCalls: ToolCallResult[]
  fired: GuardrailFired[]
  handoff: HandoffReason | null
  provider: string
  model: string
}

type Passage = Awaited<ReturnType<Services['knowledge']['search']['passages']>>[number]

/**
 * One reply of a bot, before anything is written: input guardrails, retrieval from the bot's knowledge,
 * engine steps with tool calls, then the hand-off rules and the output guardrails. Never throws for a
 * tool or AI provider failure: the customer gets the fallback message and a human gets the conversation.
 */
export async function runTurn(k: Kernel, services: Services, t: TurnInput): Promise<TurnOutcome> {
  const g = t.config.guardrails
  const base = { citations: [], confidence: null, toolCalls: [], provider: t.engine.provider, model: t.engine.model }
  const input = checkInput(g, t.question)
  if (input.blocked) return { ...base, content: input.reply ?? g.blocked_reply, grounded: false, fired: input.fired, handoff: null }

  const { kbIds, passages } = await retrieve(services, t.tenant, t.config.knowledge_base_ids, t.question, !t.test)
  const toolResults: ToolCallResult[] = []
  let handoff: HandoffReason | null = null
  let step: AiStep | null = null
  try {
    for (let i = 0; i < MAX_STEPS; i++) {
      step = await t.engine.respond({
        instructions: t.config.instructions,
        transcript: t.transcript,
        passages: passages.map(source),
        // The last step must answer: no tools offered.
        tools: i < MAX_STEPS - 1 ? t.config.tools.map((tool) => toolSpecOf(stored(tool))) : [],
        toolResults: toolResults.map(resultInput),
        temperature: t.config.ai.temperature,
      })
      if (step.kind !== 'tool_calls') break
      for (const [n, call] of step.calls.entries()) {
        const result = n < MAX_CALLS_PER_STEP ? await runCall(k, t, kbIds, call, i) : skipped(call)
        toolResults.push(result)
        if (result.ok && call.name === 'handoff_to_human') handoff = 'requested'
        // Passages a search_knowledge call found can be cited like the question's own.
        for (const p of foundPassages(result)) if (!passages.some((q) => q.chunk_id === p.chunk_id)) passages.push(p)
      }
    }
  } catch (err) {
    if (!(err instanceof AppError) || !err.code.startsWith('ai_provider')) throw err
    k.log.warn({ err: { code: err.code, detail: err.detail }, bot: t.botId }, 'AI provider failed; the bot hands off')
    const out = checkOutput(g, g.fallback_message, { grounded: true })
    return { ...base, content: out.text, grounded: false, toolCalls: toolResults, fired: [...input.fired, ...out.fired], handoff: 'ai_error' }
  }

  const answer = step?.kind === 'answer' ? step : null
  const cited = new Map(passages.map((p) => [p.chunk_id, p]))
  const citations = (answer?.sources ?? []).filter((s) => s.kind === 'passage' && cited.has(s.id)).map((s) => searchResultOf(cited.get(s.id)!))
  // One notion of "answered" (knowledge.relevance.ts): knowledge grounds a reply only when a passage it
  // was given reaches the threshold the search and the gaps use, so a question logged as a gap is never
  // answered as grounded; and the confidence never exceeds the calibrated score of what the reply cites.
  const bestPassage = passages.reduce((m, p) => Math.max(m, p.score), 0)
  const toolGrounded = toolResults.some((r) => r.ok && r.name !== 'handoff_to_human')
  const grounded = !!answer && ((answer.grounded && isAnswered(bestPassage)) || toolGrounded)
  const citedScore = citations.length > 0 ? Math.max(...citations.map((c) => c.score)) : toolGrounded || passages.length === 0 ? 1 : bestPassage
  const confidence = answer?.confidence == null ? null : Math.min(answer.confidence, citedScore)
  let content = answer?.content ?? g.fallback_message
  if (handoff === null && !grounded) handoff = 'not_grounded'
  else if (handoff === null && confidence !== null && confidence < t.config.handoff.confidence_threshold) handoff = 'low_confidence'
  // Not sure (or asked to): the customer is told a human takes over instead of a guess.
  if (handoff === 'low_confidence' || handoff === 'requested') content = g.fallback_message
  const out = checkOutput(g, content, { grounded: grounded || handoff === 'requested' || handoff === 'low_confidence' })
  if (out.handoff && handoff === null) handoff = 'guardrail'
  return {
    content: out.text,
    citations: handoff === 'low_confidence' ? [] : citations,
    confidence,
    grounded,
    toolCalls: toolResults,
    fired: [...input.fired, ...out.fired],
    handoff,
    provider: answer?.provider ?? t.engine.provider,
    model: answer?.model ?? t.engine.model,
  }
}

async function runCall(k: Kernel, t: TurnInput, kbIds: string[], call: { call_id: string; name: string; arguments: Record<string, unknown> }, step: number): Promise<ToolCallResult> {
  const tool = t.config.tools.find((x) => x.name === call.name)
  if (!tool) {
    return {
      call_id: call.call_id,
      name: call.name,
      arguments: call.arguments,
      ok: false,
      status: null,
      output: null,
      error: { code: 'unknown_tool', detail: `The bot has no tool named '${call.name}'.` },
      duration_ms: 0,
    }
  }
  const secret = tool.signing_secret_sealed ? k.secrets.open(tool.signing_secret_sealed, tool.id) : null
  return callTool(
    k,
    stored(tool),
    call.arguments,
    {
      tenant: t.tenant,
      callId: call.call_id,
      idempotencyKey: callIdempotencyKey(t.scope, step, call.name, call.arguments),
      conversationId: t.conversationId,
      knowledgeBaseIds: kbIds,
    },
    secret,
  )
}

const skipped = (call: { call_id: string; name: string; arguments: Record<string, unknown> }): ToolCallResult => ({
  call_id: call.call_id,
  name: call.name,
  arguments: call.arguments,
  ok: false,
  status: null,
  output: null,
  error: { code: 'skipped', detail: `At most ${MAX_CALLS_PER_STEP} tool calls run per step.` },
  duration_ms: 0,
})

/** A frozen tool row as the kernel's tool model stores it (the seal's context is the tool id). */
const stored = (t: FrozenTool): StoredTool => ({
  type: t.type,
  name: t.name,
  description: t.description,
  parameters: t.parameters,
  url: t.url,
  method: t.method as StoredTool['method'],
  headers_sealed: t.headers_sealed,
  header_names: t.header_names,
  timeout_ms: t.timeout_ms === null ? null : Number(t.timeout_ms),
  owner_id: t.id,
})

const resultInput = (r: ToolCallResult): ToolResultInput => ({ call_id: r.call_id, name: r.name, arguments: r.arguments, ok: r.ok, output: r.output, error: r.error })

const source = (p: Passage): AiSource => ({ kind: 'passage', id: p.chunk_id, title: p.title, text: p.text })

function foundPassages(r: ToolCallResult): Passage[] {
  if (!r.ok || r.name !== 'search_knowledge') return []
  const out = r.output as { passages?: Passage[] } | null
  return Array.isArray(out?.passages) ? out.passages : []
}

/** The question's passages from the bot's bases (a base deleted since the version froze its id is skipped). */
async function retrieve(services: Services, tenant: Tenant, ids: string[], question: string, recordGaps: boolean): Promise<{ kbIds: string[]; passages: Passage[] }> {
  const passages = ids.length > 0 ? await services.knowledge.search.passages(tenant, question, { knowledgeBaseIds: ids, topK: PASSAGES, recordGaps }) : []
  return { kbIds: ids, passages }
}
