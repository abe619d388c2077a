import type OpenAI from 'openai'
import { AppError } from '../errors.js'

export const OPENAI_DEFAULT_BASE_URL = 'https://api.openai.com/v1'

export interface LoadedOpenAi {
  client: OpenAI
  mod: typeof import('openai')
}

/**
 * The official client for an operator-configured OpenAI-compatible endpoint (embeddings, transcription),
 * loaded with import() on first use: the package (~13 MB resident) stays out of processes that never call.
 * Every option explicit so the client reads no OPENAI_* variable (config.ts owns the environment); retries
 * off (the callers' jobs retry), one timeout.
 */
/** The client's options, every one explicit so it reads nothing from OPENAI_* variables (config.ts owns the env). */
export function openAiOptions(config: { baseUrl: string | null; apiKey: string | null; timeoutMs: number }): ConstructorParameters<typeof OpenAI>[0] {
  return {
    baseURL: config.baseUrl ?? OPENAI_DEFAULT_BASE_URL,
    // Local servers usually take no key; the client insists on one.
    apiKey: config.apiKey ?? 'not-set',
    organization: null,
    project: null,
    webhookSecret: null,
    timeout: config.timeoutMs,
    maxRetries: 0,
    logLevel: 'off',
  }
}

export function loadOpenAiClient(config: { baseUrl: string | null; apiKey: string | null; timeoutMs: number }): Promise<LoadedOpenAi> {
  return import('openai').then((mod) => ({ mod, client: new mod.default(openAiOptions(config)) }))
}

export function providerProblem(mod: typeof import('openai'), err: unknown, deadline: AbortSignal, what: { name: string; env: string; timeoutMs: number }): AppError {
  if (deadline.aborted || err instanceof mod.APIConnectionTimeoutError) {
    return new AppError('ai_provider_timeout', `The ${what.name} provider did not answer within ${what.timeoutMs} ms (${what.env}_TIMEOUT_MS).`)
  }
  if (err instanceof mod.APIConnectionError) return new AppError('ai_provider_unavailable', `The ${what.name} provider could not be reached at ${what.env}_BASE_URL; try again later.`)
  if (err instanceof mod.APIError && (err.status === 429 || err.status === 503)) {
    return new AppError('ai_provider_unavailable', `The ${what.name} provider is busy or down (HTTP ${err.status}); try again later.`, { headers: { 'Retry-After': '5' } })
  }
  if (err instanceof mod.APIError && err.status !== undefined) {
    return new AppError('ai_provider_error', `The ${what.name} provider rejected the request (HTTP ${err.status}); check ${what.env}_MODEL and ${what.env}_API_KEY.`)
  }
  return new AppError('ai_provider_error', `The ${what.name} provider returned an unusable answer.`)
}
