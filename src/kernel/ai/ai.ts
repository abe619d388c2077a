import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import { AppError } from '../errors.js'
import type { AiEngine, AiProvider, AiStep, GenerateRequest, Generation, RespondRequest } from './ai.types.js'
import { BuiltinEngine } from './builtin.js'
import { checkOpenAiConfig } from './openai-config.js'

/**
 * The one seam for everything that generates text (inbox drafts now; bots and agents later). Callers
 * pass what the engine may draw on as `sources`; the engine says which of them it used, so an answer is
 * always traceable. No domain knowledge here: the caller words the task and names the source kinds.
 * The kernel builds one engine (`kernel.ai`); modules use that one.
 */
export type * from './ai.types.js'
export { excerptOf, fillPlaceholders, placeholdersOf } from './ai.text.js'
export { extractiveAnswer, type ExtractiveAnswer } from './extractive.js'
export { threadQuery, type ThreadQuery } from './thread-query.js'

export function createAiEngine(config: Config['ai'], log: Logger): AiEngine {
  return config.provider === 'openai' ? new LazyOpenAiEngine(config, log) : new BuiltinEngine(config.model)
}

/** Loads the openai client (~13 MB resident) only when the provider is used, not in every process. */
class LazyOpenAiEngine implements AiEngine {
  readonly provider = 'openai' as const
  readonly model: string
  private engine: Promise<AiEngine> | null = null
  constructor(
    private readonly config: Config['ai'],
    private readonly log: Logger,
  ) {
    this.model = config.model
  }
  check() {
    return checkOpenAiConfig(this.config)
  }
  private load(): Promise<AiEngine> {
    this.engine ??= import('./openai.js').then((m) => new m.OpenAiEngine(this.config, this.log))
    return this.engine
  }
  async generate(req: GenerateRequest): Promise<Generation> {
    return (await this.load()).generate(req)
  }
  async respond(req: RespondRequest): Promise<AiStep> {
    return (await this.load()).respond(req)
  }
}

const builtins = new WeakMap<object, AiEngine>()

/**
 * The engine for one call when a bot or agent overrides the provider: null means the configured one
 * (`kernel.ai`). builtin is always available; openai only where AI_PROVIDER=openai (its server, key and
 * model are the operator's), else a 422 `unprocessable` — check it when the override is saved, too.
 */
export function aiEngineFor(kernel: { ai: AiEngine }, provider: AiProvider | null | undefined): AiEngine {
  if (!provider || provider === kernel.ai.provider) return kernel.ai
  if (provider === 'builtin') {
    let engine = builtins.get(kernel)
    if (!engine) builtins.set(kernel, (engine = new BuiltinEngine('builtin-bm25')))
    return engine
  }
  throw new AppError('unprocessable', 'The openai provider is not configured on this server: the operator sets AI_PROVIDER=openai with AI_BASE_URL (and AI_API_KEY, AI_MODEL) to use it.')
}
