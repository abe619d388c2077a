import type OpenAI from 'openai'
import { AppError } from '../errors.js'
import { excerptOf } from './ai.text.js'
import type { AiStep, Citation, RespondRequest, TokenUsage, ToolCallRequest } from './ai.types.js'

/** Passages put in the prompt at most, and the characters of each. */
const MAX_PASSAGES = 8
const PASSAGE_CHARS = 2000

/**
 * An answer that says the passages do not answer. With such a sentence and no [n] marker, the answer
 * is not grounded even though passages were given.
 */
const CANNOT_ANSWER =
  /\b(?:(?:don'?t|do not|cannot|can'?t|couldn'?t|could not|unable to) (?:know|answer|find|tell|say|help)|(?:no|not enough) information|not (?:mentioned|covered|stated|included|in the (?:provided|given|reference))|does(?:n'?t| not) (?:say|mention|cover|contain))/i

export function respondMessages(req: RespondRequest): OpenAI.Chat.ChatCompletionMessageParam[] {
  const passages = req.passages.slice(0, MAX_PASSAGES)
  const reference = passages.map((p, i) => `[${i + 1}] ${p.title ? `${p.title}: ` : ''}${excerptOf(p.text, PASSAGE_CHARS)}`).join('\n')
  const system = [
    req.instructions ? `Instructions:\n${req.instructions}` : '',
    'Answer the customer using only the numbered passages below and the results of the tools you call. ' +
      'Cite each statement with the number of its passage in brackets, e.g. [1]. ' +
      'If neither the passages nor a tool answer the question, say plainly that you do not know; never invent facts.',
    req.tools.length > 0 ? 'Call a tool when the customer asks for something a tool does, with arguments taken from the conversation.' : '',
    reference ? `Passages:\n${reference}` : 'Passages: none.',
  ]
    .filter(Boolean)
    .join('\n\n')
  const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
    { role: 'system', content: system },
    ...req.transcript.map((t) => ({ role: t.role === 'customer' ? ('user' as const) : ('assistant' as const), content: t.text })),
  ]
  for (const r of req.toolResults) {
    messages.push({ role: 'assistant', content: null, tool_calls: [{ id: r.call_id, type: 'function', function: { name: r.name, arguments: JSON.stringify(r.arguments) } }] })
    messages.push({ role: 'tool', tool_call_id: r.call_id, content: JSON.stringify(r.ok ? { ok: true, output: r.output } : { ok: false, error: r.error ?? null, output: r.output ?? null }) })
  }
  return messages
}

export function respondTools(req: RespondRequest): OpenAI.Chat.ChatCompletionTool[] {
  return req.tools.map((t) => ({ type: 'function', function: { name: t.name, description: t.description, parameters: t.parameters } }))
}

/**
 * The model's step. Tool calls must name an offered tool and carry a JSON object: otherwise the answer
 * is unusable and the step fails with ai_provider_error (the caller reports it; nothing is called).
 * Arguments that are JSON but do not fit the schema are passed on: callTool refuses them with
 * invalid_arguments, and the model sees that result on its next step.
 */
export function readRespondCompletion(completion: OpenAI.Chat.ChatCompletion, req: RespondRequest, base: { provider: 'openai'; model: string; usage?: TokenUsage }): AiStep {
  const message = completion.choices?.[0]?.message
  if (completion.usage) base = { ...base, usage: { prompt: completion.usage.prompt_tokens ?? 0, completion: completion.usage.completion_tokens ?? 0 } }
  const offered = new Set(req.tools.map((t) => t.name))
  const toolCalls = (message?.tool_calls ?? []).filter((c) => c.type === 'function')
  if (toolCalls.length > 0) {
    const calls: ToolCallRequest[] = toolCalls.map((c) => {
      if (!offered.has(c.function.name)) throw new AppError('ai_provider_error', `The AI provider asked for a tool that is not offered (${JSON.stringify(c.function.name).slice(0, 80)}).`)
      let args: unknown
      try {
        args = c.function.arguments.trim() === '' ? {} : JSON.parse(c.function.arguments)
      } catch {
        throw new AppError('ai_provider_error', `The AI provider called ${c.function.name} with arguments that are not JSON.`)
      }
      if (!args || typeof args !== 'object' || Array.isArray(args)) throw new AppError('ai_provider_error', `The AI provider called ${c.function.name} with arguments that are not a JSON object.`)
      return { call_id: c.id || `call_${c.function.name}`, name: c.function.name, arguments: args as Record<string, unknown> }
    })
    return { kind: 'tool_calls', calls, ...base }
  }
  const content = typeof message?.content === 'string' ? message.content.trim() : ''
  if (content === '') throw new AppError('ai_provider_error', 'The AI provider answered without any text or tool call.')
  const passages = req.passages.slice(0, MAX_PASSAGES)
  const cited = new Set<number>()
  const MARKER = /\[(\d{1,2})\]/g
  for (const m of content.matchAll(MARKER)) {
    const i = Number(m[1]) - 1
    if (i >= 0 && i < passages.length) cited.add(i)
  }
  const order = [...cited].sort((a, b) => a - b)
  // Markers are renumbered to the reply's own citations ("[4]" of the prompt is the reply's [n]-th source);
  // one that points at no passage is removed: a citation must lead somewhere.
  const text = content
    .replace(MARKER, (_, n: string) => {
      const at = order.indexOf(Number(n) - 1)
      return at < 0 ? '' : `[${at + 1}]`
    })
    .replace(/ {2,}/g, ' ')
    .replace(/ ([.,;:!?])/g, '$1')
    .trim()
  const grounded = cited.size > 0 || (passages.length > 0 && !CANNOT_ANSWER.test(text)) || (req.toolResults.some((r) => r.ok) && !CANNOT_ANSWER.test(text))
  const used = cited.size > 0 ? order : grounded ? passages.map((_, i) => i) : []
  const sources: Citation[] = used.map((i) => ({ kind: 'passage', id: passages[i].id, title: passages[i].title ?? null, excerpt: excerptOf(passages[i].text), score: cited.has(i) ? 1 : 0.5 }))
  return { kind: 'answer', content: text, confidence: null, grounded, sources, ...base }
}
