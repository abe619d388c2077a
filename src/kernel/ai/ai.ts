import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import { BuiltinEngine } from './builtin.js'

/**
 * The one seam for everything that generates text (inbox drafts now; bots and agents later). Callers
 * pass what the engine may draw on as `sources`; the engine says which of them it used, so an answer is
 * always traceable. No domain knowledge here: the caller words the task and names the source kinds.
 */
export type AiProvider = 'builtin' | 'openai'

/** What a source is: a reply template, a message of a conversation, or a knowledge passage (later). */
export type SourceKind = 'template' | 'message' | 'passage'

export interface AiSource {
  kind: SourceKind
  id: string
  title?: string | null
  text: string
}

/** One turn of the conversation being answered, oldest first. */
export interface AiTurn {
  role: 'customer' | 'agent'
  text: string
  /** Id of the message, so a draft can cite the turn it answers. */
  id?: string
}

export interface GenerateRequest {
  /** The job in one sentence, e.g. "Draft the next reply to the customer." */
  task: string
  transcript: AiTurn[]
  /** Candidate material: the engine ranks it and uses only what matches. */
  sources: AiSource[]
  /** Values for `{{name}}` placeholders in sources, e.g. `{ 'contact.name': 'Ada' }`. */
  variables?: Record<string, string | null | undefined>
  /** Extra guidance from the caller (tone, language). */
  instructions?: string | null
}

export interface Citation {
  kind: SourceKind
  id: string
  title: string | null
  /** The part of the source that was used, at most 280 characters. */
  excerpt: string
  /** Relevance in [0, 1] relative to the best match; 1 for the turn being answered. */
  score: number
}

export interface Generation {
  content: string
  /** In [0, 1]; null when the provider gives no estimate (openai). */
  confidence: number | null
  /** False when nothing matched and `content` says so instead of answering. */
  grounded: boolean
  sources: Citation[]
  provider: AiProvider
  model: string
}

export interface AiEngine {
  readonly provider: AiProvider
  readonly model: string
  /** Throws AppError ai_provider_error (502), ai_provider_unavailable (503) or ai_provider_timeout (504). */
  generate(req: GenerateRequest): Promise<Generation>
  /** Configuration check for health reports; never calls the provider. */
  check(): { status: 'ok' | 'degraded'; detail?: string }
}

export function createAiEngine(config: Config['ai'], log: Logger): AiEngine {
  return config.provider === 'openai' ? new LazyOpenAiEngine(config, log) : new BuiltinEngine(config.model)
}

export function checkOpenAiConfig(config: Config['ai']): { status: 'ok' | 'degraded'; detail?: string } {
  if (!config.baseUrl && !config.apiKey) {
    return { status: 'degraded', detail: 'AI_PROVIDER=openai without AI_API_KEY: the default endpoint will refuse requests.' }
  }
  return { status: 'ok' }
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

const PLACEHOLDER = /\{\{\s*([a-z][a-z0-9_]*(?:\.[a-z][a-z0-9_]*)*)\s*\}\}/gi

/** Names used in `{{…}}` placeholders of a text, in order of first appearance. */
export function placeholdersOf(text: string): string[] {
  return [...new Set([...text.matchAll(PLACEHOLDER)].map((m) => m[1].toLowerCase()))]
}

/** Fill known placeholders; unknown or empty ones stay visible so a person notices before sending. */
export function fillPlaceholders(text: string, variables: GenerateRequest['variables'] = {}): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => {
    const v = variables[name.toLowerCase()]
    return v ? v : whole
  })
}

export const excerptOf = (text: string, max = 280): string => (text.length <= max ? text : `${text.slice(0, max - 1)}…`)
