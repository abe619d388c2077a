import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import type { AiEngine, GenerateRequest, Generation } from './ai.types.js'
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
  async generate(req: GenerateRequest): Promise<Generation> {
    this.engine ??= import('./openai.js').then((m) => new m.OpenAiEngine(this.config, this.log))
    return (await this.engine).generate(req)
  }
}
