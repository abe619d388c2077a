import { aiEngineFor, type AiTurn } from '../../kernel/ai/ai.js'
import { renderReply } from '../../kernel/ai/render-reply.js'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { Answerer } from './voice.tables.js'
import { referenced } from '../../kernel/references.js'

/** Who speaks for us on a call: the first words, an answer per caller line, the last words. */
export interface VoiceAnswerer {
  greeting: string
  /** Null for a greeting-only call (the caller's lines get no answer). */
  reply: ((transcript: AiTurn[], turn: number) => Promise<{ text: string; handoff: boolean }>) | null
  closing: string | null
}

const CLOSING = 'Thanks for calling. Goodbye.'
/** Said when the engine fails or finds nothing to say: a call cannot be left silent. */
const FALLBACK = "I'm sorry, I can't answer that right now. A colleague will follow up with you."
const PASSAGES = 5

/**
 * The bot or agent a number or call names exists in the tenant (a bot must be published). Named in the
 * request body (`fromBody`), an unknown one is 422 `invalid_reference` at `/body/bot_id` or `/body/agent_id`;
 * a number's own answerer that has gone since is a 404.
 */
export async function checkAnswerer(services: Services, tenant: Tenant, type: Answerer, id: string | null, fromBody = true): Promise<void> {
  const lookup = async () => {
    if (type === 'bot') await services.bots.replies.answering(tenant, id!)
    if (type === 'agent') await services.agents.agents.get(tenant, id!)
  }
  await (fromBody && (type === 'bot' || type === 'agent') ? referenced(`/body/${type}_id`, lookup) : lookup())
}

/** What is said on the line (and so written in the transcript): no citation markers, URLs or Markdown. */
const spoken = (text: string) => renderReply(text, [], 'voice')

/**
 * The answerer of one call. Every line passes through `spoken`: the engines write for a screen ("[1]",
 * links, "**", "$25.50"), a caller hears the words. A bot answers with its published version (knowledge, tools, guardrails; tool
 * calls keyed by call and turn, so a retried step repeats none). An agent answers from its instructions
 * and knowledge without tools: a tool waiting for a human's approval cannot hold a phone line.
 */
export async function answererFor(
  k: Kernel,
  services: Services,
  tenant: Tenant,
  call: { id: string; answer_type: Answerer; answer_id: string | null; greeting: string | null },
): Promise<VoiceAnswerer> {
  if (call.answer_type === 'bot') {
    const { name } = await services.bots.replies.answering(tenant, call.answer_id!)
    return {
      greeting: spoken(call.greeting ?? `Hi, this is ${name}. How can I help you today?`),
      reply: async (transcript, turn) => {
        const out = await services.bots.replies.answer(tenant, call.answer_id!, transcript, `${call.id}:turn:${turn}`)
        return { text: spoken(out.content) || FALLBACK, handoff: out.handoff !== null }
      },
      closing: CLOSING,
    }
  }
  if (call.answer_type === 'agent') {
    const agent = await services.agents.agents.get(tenant, call.answer_id!)
    const engine = aiEngineFor(k, agent.ai.provider)
    return {
      greeting: spoken(call.greeting ?? `Hi, this is ${agent.name}. How can I help?`),
      reply: async (transcript) => {
        const question = transcript.at(-1)?.text ?? ''
        const passages = agent.knowledge_base_ids.length ? await services.knowledge.search.passages(tenant, question, { knowledgeBaseIds: agent.knowledge_base_ids, topK: PASSAGES }) : []
        try {
          const step = await engine.respond({
            instructions: agent.instructions,
            transcript,
            passages: passages.map((p) => ({ kind: 'passage', id: p.chunk_id, title: p.title, text: p.text })),
            tools: [],
            toolResults: [],
            temperature: agent.ai.temperature,
          })
          const text = step.kind === 'answer' ? spoken(step.content) : ''
          return text ? { text, handoff: false } : { text: FALLBACK, handoff: true }
        } catch (err) {
          if (!(err instanceof AppError) || !err.code.startsWith('ai_provider')) throw err
          k.log.warn({ err: { code: err.code }, call: call.id }, 'AI provider failed during a call; the agent hands off')
          return { text: FALLBACK, handoff: true }
        }
      },
      closing: CLOSING,
    }
  }
  return { greeting: spoken(call.greeting ?? 'Hello. This is an automated call.'), reply: null, closing: null }
}
