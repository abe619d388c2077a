import OpenAI, { APIConnectionError, APIConnectionTimeoutError, APIError } from 'openai'
import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import { AppError } from '../errors.js'
import { excerptOf, fillPlaceholders } from './ai.text.js'
import type { AiEngine, AiStep, Citation, GenerateRequest, Generation, RespondRequest } from './ai.types.js'
import { openAiOptions } from './openai-client.js'
import { checkOpenAiConfig } from './openai-config.js'
import { readRespondCompletion, respondMessages, respondTools } from './openai-respond.js'
import { rankByRelevance } from './ranker.js'
import { threadQuery } from './thread-query.js'

/** Sources handed to the model as reference material (ranked for the conversation as the builtin engine does). */
const CONTEXT_SOURCES = 3

/**
 * Any OpenAI-compatible chat-completions server (OpenAI, vLLM, Ollama, LM Studio, …) through the official
 * client. Retries are off and one deadline covers connect, headers and body, so AI_TIMEOUT_MS is the
 * longest a caller waits; failures become 502/503/504 problems, never a hang or a 500.
 */
export class OpenAiEngine implements AiEngine {
  readonly provider = 'openai' as const
  readonly model: string
  private readonly client: OpenAI

  constructor(
    private readonly config: Config['ai'],
    private readonly log: Logger,
  ) {
    this.model = config.model
    this.client = new OpenAI(openAiOptions(config))
  }

  check() {
    return checkOpenAiConfig(this.config)
  }

  async generate(req: GenerateRequest): Promise<Generation> {
    const last = req.transcript.filter((t) => t.role === 'customer').at(-1)
    // The same choice of sources as the builtin engine: by the conversation, latest message first.
    const ranked = rankByRelevance(
      threadQuery(req.transcript),
      req.sources.filter((s) => s.kind !== 'message'),
      CONTEXT_SOURCES,
    )
    const reference = ranked.map((r, i) => `[${i + 1}] ${r.source.title ? `${r.source.title}: ` : ''}${fillPlaceholders(r.source.text, req.variables)}`).join('\n')
    const known = Object.entries(req.variables ?? {})
      .filter(([, v]) => !!v)
      .map(([k, v]) => `${k}: ${v}`)
      .join('\n')
    const system = [
      `${req.task} Write only the reply text, ready for a person to review.`,
      'Use the reference material when it answers the question; if nothing answers it, say you will find out rather than invent facts.',
      req.instructions ? `Guidance: ${req.instructions}` : '',
      known ? `Known details:\n${known}` : '',
      reference ? `Reference material:\n${reference}` : '',
    ]
      .filter(Boolean)
      .join('\n\n')
    const messages: OpenAI.Chat.ChatCompletionMessageParam[] = [
      { role: 'system', content: system },
      ...req.transcript.map((t) => ({ role: t.role === 'customer' ? ('user' as const) : ('assistant' as const), content: t.text })),
    ]

    // The client's own timeout stops at the response headers; this deadline also bounds the body.
    const deadline = AbortSignal.timeout(this.config.timeoutMs)
    let content: string | null | undefined
    try {
      const completion = await this.client.chat.completions.create({ model: this.model, messages, temperature: 0.3 }, { signal: deadline, timeout: this.config.timeoutMs, maxRetries: 0 })
      content = completion.choices?.[0]?.message?.content
    } catch (err) {
      throw this.toAppError(err, deadline)
    }
    if (typeof content !== 'string' || content.trim() === '') {
      throw new AppError('ai_provider_error', 'The AI provider answered without any text.')
    }
    const sources: Citation[] = ranked.map((r) => ({
      kind: r.source.kind,
      id: r.source.id,
      title: r.source.title ?? null,
      excerpt: excerptOf(r.source.text),
      score: Math.round(r.relevance * 100) / 100,
    }))
    if (last?.id) sources.push({ kind: 'message', id: last.id, title: null, excerpt: excerptOf(last.text), score: 1 })
    // The model's text is not scored; what grounds it is the reference material it was given.
    const grounded = ranked.length > 0 && (req.minRelevance === undefined || ranked[0].relevance >= req.minRelevance)
    return { content: content.trim(), confidence: null, grounded, sources, provider: this.provider, model: this.model }
  }

  /** One step of a tool-calling reply (see openai-respond.ts for the prompt and how the answer is read). */
  async respond(req: RespondRequest): Promise<AiStep> {
    const tools = respondTools(req)
    const deadline = AbortSignal.timeout(this.config.timeoutMs)
    let completion: OpenAI.Chat.ChatCompletion
    const params = {
      model: this.model,
      messages: respondMessages(req),
      temperature: req.temperature ?? 0.3,
      // tool_choice without tools is refused by OpenAI itself.
      ...(tools.length > 0 ? { tools, tool_choice: 'auto' as const } : {}),
    }
    const options = { signal: deadline, timeout: this.config.timeoutMs, maxRetries: 0 }
    try {
      if (req.onDelta) {
        // The client's stream helper assembles the chunks (text and tool-call pieces) into the same
        // completion a plain request returns, so the answer is read the same way either way.
        const onDelta = req.onDelta
        const stream = this.client.chat.completions.stream({ ...params, stream: true }, options)
        stream.on('content', (delta) => {
          if (delta) onDelta(delta)
        })
        completion = await stream.finalChatCompletion()
      } else completion = await this.client.chat.completions.create(params, options)
    } catch (err) {
      throw this.toAppError(err, deadline)
    }
    return readRespondCompletion(completion, req, { provider: this.provider, model: this.model })
  }

  private toAppError(err: unknown, deadline: AbortSignal): AppError {
    this.log.warn({ err, provider: this.provider, model: this.model }, 'AI provider call failed')
    if (deadline.aborted || err instanceof APIConnectionTimeoutError) {
      return new AppError('ai_provider_timeout', `The AI provider did not answer within ${this.config.timeoutMs} ms (AI_TIMEOUT_MS).`)
    }
    if (err instanceof APIConnectionError) {
      return new AppError('ai_provider_unavailable', 'The AI provider could not be reached at AI_BASE_URL; try again later.')
    }
    if (err instanceof APIError && (err.status === 429 || err.status === 503)) {
      return new AppError('ai_provider_unavailable', `The AI provider is busy or down (HTTP ${err.status}); try again later.`, { headers: { 'Retry-After': '5' } })
    }
    if (err instanceof APIError && err.status !== undefined) {
      return new AppError('ai_provider_error', `The AI provider rejected the request (HTTP ${err.status}); check AI_MODEL and AI_API_KEY.`)
    }
    return new AppError('ai_provider_error', 'The AI provider returned an unusable answer.')
  }
}
