import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import { AppError } from '../errors.js'
import type { AiCheck } from './ai.types.js'
import { loadOpenAiClient, providerProblem, type LoadedOpenAi } from './openai-client.js'

/** Inputs per request: OpenAI accepts up to 2048; local servers are happier with less. */
const BATCH = 64

/**
 * The embeddings seam: any OpenAI-compatible `POST /embeddings` endpoint (OpenAI, vLLM, Ollama, LM
 * Studio, TEI with the OpenAI route…), built once as `kernel.embeddings` — null when EMBEDDINGS_BASE_URL
 * and EMBEDDINGS_API_KEY are both unset. The operator configures the URL (it is not user input, like
 * AI_BASE_URL). Failures become the AI seam's problems: 502 ai_provider_error, 503 ai_provider_unavailable,
 * 504 ai_provider_timeout.
 */
export interface EmbeddingsEngine {
  readonly model: string
  /** One vector per input, in order; inputs are sent in batches of BATCH. */
  embed(inputs: string[]): Promise<Float32Array[]>
  /** Configuration check for health reports; never calls the provider. */
  check(): AiCheck
}

export function createEmbeddings(config: Config['embeddings'], log: Logger): EmbeddingsEngine | null {
  return config ? new OpenAiEmbeddings(config, log) : null
}

class OpenAiEmbeddings implements EmbeddingsEngine {
  readonly model: string
  // The openai client (~13 MB resident) is loaded on first use, not in every process.
  private client: Promise<LoadedOpenAi> | null = null

  constructor(
    private readonly config: NonNullable<Config['embeddings']>,
    private readonly log: Logger,
  ) {
    this.model = config.model
  }

  check(): AiCheck {
    if (!this.config.baseUrl && !this.config.apiKey) return { status: 'degraded', detail: 'embeddings without EMBEDDINGS_API_KEY: the default endpoint will refuse requests.' }
    return { status: 'ok' }
  }

  private load(): Promise<LoadedOpenAi> {
    this.client ??= loadOpenAiClient(this.config)
    return this.client
  }

  async embed(inputs: string[]): Promise<Float32Array[]> {
    if (inputs.length === 0) return []
    const { client, mod } = await this.load()
    const out: Float32Array[] = []
    for (let i = 0; i < inputs.length; i += BATCH) {
      const batch = inputs.slice(i, i + BATCH)
      const deadline = AbortSignal.timeout(this.config.timeoutMs)
      let data: { index: number; embedding: number[] | string }[]
      try {
        const res = await client.embeddings.create({ model: this.model, input: batch, encoding_format: 'float' }, { signal: deadline, timeout: this.config.timeoutMs, maxRetries: 0 })
        data = res.data as { index: number; embedding: number[] | string }[]
      } catch (err) {
        throw this.toAppError(mod, err, deadline)
      }
      if (!Array.isArray(data) || data.length !== batch.length) {
        throw new AppError('ai_provider_error', `The embeddings provider returned ${Array.isArray(data) ? data.length : 'no'} vectors for ${batch.length} inputs.`)
      }
      const sorted = [...data].sort((a, b) => a.index - b.index)
      for (const d of sorted) {
        if (!Array.isArray(d.embedding) || d.embedding.length === 0) throw new AppError('ai_provider_error', 'The embeddings provider returned an unusable vector.')
        out.push(Float32Array.from(d.embedding))
      }
    }
    return out
  }

  private toAppError(mod: typeof import('openai'), err: unknown, deadline: AbortSignal): AppError {
    this.log.warn({ err, model: this.model }, 'embeddings provider call failed')
    return providerProblem(mod, err, deadline, { name: 'embeddings', env: 'EMBEDDINGS', timeoutMs: this.config.timeoutMs })
  }
}

/** Cosine similarity of two vectors (0 when either is empty or they differ in length). */
export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length === 0 || a.length !== b.length) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    dot += a[i] * b[i]
    na += a[i] * a[i]
    nb += b[i] * b[i]
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}

/** Float32 little-endian bytes, as stored (BLOB / bytea). */
export const vectorToBytes = (v: Float32Array): Buffer => Buffer.from(v.buffer, v.byteOffset, v.byteLength)
export function vectorFromBytes(b: Uint8Array): Float32Array {
  // Copy: the driver's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(b.byteLength)
  copy.set(b)
  return new Float32Array(copy.buffer, 0, Math.floor(b.byteLength / 4))
}
