import { excerptOf, fillPlaceholders } from './ai.text.js'
import type { AiEngine, AiStep, Citation, GenerateRequest, Generation, RespondRequest } from './ai.types.js'
import { builtinRespond } from './builtin-respond.js'
import { rankSources } from './ranker.js'

/** How many recent customer turns form the query: enough for context, few enough to stay on topic. */
const QUERY_TURNS = 3

/**
 * Deterministic and offline: answers with the best-matching source (a reply template, later a passage),
 * placeholders filled. Confidence grows with the share of the question's terms the source covers; when
 * nothing matches it says so with confidence 0 rather than invent an answer.
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
    const asked = req.transcript.filter((t) => t.role === 'customer').slice(-QUERY_TURNS)
    const base = { provider: this.provider, model: this.model }
    if (asked.length === 0) {
      return { ...base, content: 'There is no customer message to answer yet.', confidence: 0, grounded: false, sources: [] }
    }
    const candidates = req.sources.filter((s) => s.kind !== 'message')
    const ranked = rankSources(asked.map((t) => t.text).join('\n'), candidates)
    const best = ranked[0]
    // One stray shared word is not a match: ask for two terms, or most of a short question.
    if (!best || (best.matched < 2 && best.coverage < 0.5)) {
      return {
        ...base,
        content: 'No reply template or knowledge matches this conversation; write this reply yourself.',
        confidence: 0,
        grounded: false,
        sources: [],
      }
    }
    const last = asked[asked.length - 1]
    const sources: Citation[] = ranked
      .filter((r) => r.score >= best.score * 0.5)
      .slice(0, 3)
      .map((r) => ({
        kind: r.source.kind,
        id: r.source.id,
        title: r.source.title ?? null,
        excerpt: excerptOf(r.source.text),
        score: Math.round((r.score / best.score) * 100) / 100,
      }))
    if (last.id) sources.push({ kind: 'message', id: last.id, title: null, excerpt: excerptOf(last.text), score: 1 })
    return {
      ...base,
      content: fillPlaceholders(best.source.text, req.variables),
      confidence: Math.round(Math.min(0.95, 0.3 + 0.65 * best.coverage) * 100) / 100,
      grounded: true,
      sources,
    }
  }
}
