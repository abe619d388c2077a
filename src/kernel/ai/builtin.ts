import { excerptOf, fillPlaceholders } from './ai.text.js'
import type { AiEngine, AiStep, Citation, GenerateRequest, Generation, RespondRequest } from './ai.types.js'
import { builtinRespond } from './builtin-respond.js'
import { rankByRelevance } from './ranker.js'
import { threadQuery } from './thread-query.js'

/** The relevance a draft rests on when the caller names none (the knowledge module's "answered" is 0.5). */
const DEFAULT_MIN_RELEVANCE = 0.5
const round2 = (n: number) => Math.round(n * 100) / 100

/**
 * Deterministic and offline: drafts with the source (reply template or knowledge passage) most relevant to
 * the conversation (thread-query.ts: the latest customer message first), placeholders filled. Confidence
 * is that source's calibrated relevance; when no source reaches `minRelevance` it says so with
 * confidence 0 rather than invent an answer.
 */
export class BuiltinEngine implements AiEngine {
  readonly provider = 'builtin' as const
  constructor(readonly model: string) {}

  check() {
    return { status: 'ok' as const }
  }

  async respond(req: RespondRequest): Promise<AiStep> {
    return builtinRespond(req, { provider: this.provider, model: this.model })
  }

  async generate(req: GenerateRequest): Promise<Generation> {
    const base = { provider: this.provider, model: this.model }
    const query = threadQuery(req.transcript)
    const last = req.transcript.filter((t) => t.role === 'customer').at(-1)
    if (!last) {
      return { ...base, content: 'There is no customer message to answer yet.', confidence: 0, grounded: false, sources: [] }
    }
    // Templates and passages on one scale (ranker.ts), so the best source wins whichever kind it is.
    const ranked = rankByRelevance(
      query,
      req.sources.filter((s) => s.kind !== 'message'),
    )
    const best = ranked[0]
    if (!best || best.relevance < (req.minRelevance ?? DEFAULT_MIN_RELEVANCE)) {
      return {
        ...base,
        content: 'No reply template or knowledge matches this conversation; write this reply yourself.',
        confidence: 0,
        grounded: false,
        sources: [],
      }
    }
    const sources: Citation[] = ranked
      .filter((r) => r.relevance >= best.relevance * 0.5)
      .slice(0, 3)
      .map((r) => ({ kind: r.source.kind, id: r.source.id, title: r.source.title ?? null, excerpt: excerptOf(r.source.text), score: round2(r.relevance) }))
    if (last.id) sources.push({ kind: 'message', id: last.id, title: null, excerpt: excerptOf(last.text), score: 1 })
    return {
      ...base,
      content: fillPlaceholders(best.source.text, req.variables),
      confidence: round2(Math.min(0.95, best.relevance)),
      grounded: true,
      sources,
    }
  }
}
