/**
 * The types of the AI seam, in a file of their own so that `ai.ts` (which picks an engine) and the
 * engines (which implement it) both import them without importing each other.
 */
export type AiProvider = 'builtin' | 'openai'

/** What a source is: a reply template, a message of a conversation, or a knowledge passage (later). */
export type SourceKind = 'template' | 'message' | 'passage'

export interface AiSource {
  kind: SourceKind
  id: string
  title?: string | null
  text: string
  /**
   * Calibrated relevance in [0, 1] the caller already knows (a knowledge passage's search score): a
   * draft ranks the source no higher than this.
   */
  relevance?: number | null
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
  /**
   * The relevance a source needs for the draft to rest on it (grounded): the caller's notion of
   * "answered" (the inbox passes the knowledge module's threshold). Default 0.5.
   */
  minRelevance?: number
}

export interface Citation {
  kind: SourceKind
  id: string
  title: string | null
  /** The part of the source that was used, at most 280 characters. */
  excerpt: string
  /**
   * Relevance in [0, 1]: for a draft's template or passage its calibrated relevance to the conversation
   * (the scale of knowledge search scores); 1 for the turn being answered.
   */
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

export type AiCheck = { status: 'ok' | 'degraded'; detail?: string }

/** A tool as an engine sees it: what it does and the JSON Schema of its arguments. */
export interface ToolSpec {
  name: string
  description: string
  parameters: Record<string, unknown>
}

/** A tool call an engine asks for. */
export interface ToolCallRequest {
  call_id: string
  name: string
  arguments: Record<string, unknown>
}

/** A call made earlier in this turn and what it returned, handed back to the engine. */
export interface ToolResultInput extends ToolCallRequest {
  ok: boolean
  output: unknown
  error?: { code: string; detail: string } | null
}

export interface RespondRequest {
  /** Persona and rules of the bot or agent. */
  instructions: string | null
  /** Oldest first; the last customer turn is the question. */
  transcript: AiTurn[]
  /** Retrieved knowledge (kind 'passage'), best first; may be empty. Marker [n] cites passages[n - 1]. */
  passages: AiSource[]
  /** What may be called; may be empty. */
  tools: ToolSpec[]
  /** The calls of earlier steps of this turn, in the order they were made. */
  toolResults: ToolResultInput[]
  temperature?: number | null
  /** "Now" for relative dates the builtin engine reads ("tomorrow"); default the current time. */
  now?: Date | null
  /** ISO 3166 country for phone numbers written without +country code (builtin engine); default none. */
  region?: string | null
  /**
   * Given: the answer's text is passed here piece by piece as the provider streams it (OpenAI-compatible,
   * `stream: true`); the builtin engine answers at once and never calls it. Pieces are provisional: the
   * step's `content` (markers checked, trimmed) is the answer.
   */
  onDelta?: ((text: string) => void) | null
}

/** Tokens a model reported for one step (absent for the builtin engine). */
export interface TokenUsage {
  prompt: number
  completion: number
}

export type AiStep = (
  | { kind: 'tool_calls'; calls: ToolCallRequest[]; provider: AiProvider; model: string }
  | {
      kind: 'answer'
      content: string
      /** In [0, 1]; null when the provider gives no estimate (openai). */
      confidence: number | null
      /** False when the passages (and tool results) do not answer and `content` says so. */
      grounded: boolean
      /** Kind 'passage', id = the passage's id, in the order of their [n] markers. */
      sources: Citation[]
      provider: AiProvider
      model: string
    }
) & { usage?: TokenUsage }

export interface AiEngine {
  readonly provider: AiProvider
  readonly model: string
  /** Throws AppError ai_provider_error (502), ai_provider_unavailable (503) or ai_provider_timeout (504). */
  generate(req: GenerateRequest): Promise<Generation>
  /**
   * One step of a tool-using reply: either the tools to call now, or the answer. The caller runs the
   * calls, then asks again with their results in `toolResults`. Throws the same AppErrors as `generate`.
   */
  respond(req: RespondRequest): Promise<AiStep>
  /** Configuration check for health reports; never calls the provider. */
  check(): AiCheck
}
