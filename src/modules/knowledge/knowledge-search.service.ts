import { cosine, vectorFromBytes } from '../../kernel/ai/embeddings.js'
import { notFound } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import { GAP_THRESHOLD, type BestAnswer, type KnowledgeGapsService } from './knowledge-gaps.service.js'
import * as index from './knowledge-index.repository.js'
import { answerFrom } from './knowledge.answer.js'
import type { KnowledgeCitationT, KnowledgeSearchResultT, KnowledgeSearchT, SearchKnowledgeBodyT } from './knowledge.search.schemas.js'
import { TOP_K } from './knowledge.search.schemas.js'
import { analyserFor, markedExcerpt, queryTerms, type Analyser } from './knowledge.text.js'

/** Keyword candidates the engine returns for scoring and (hybrid) re-ranking. */
const CANDIDATES = 50
/** Hybrid fusion: weight of the cosine similarity against the normalised keyword score. */
const VECTOR_WEIGHT = 0.6

/** A passage for other modules (inbox drafts, later bots): a search result with its full text. */
export interface KnowledgePassage extends KnowledgeCitationT {
  score: number
  excerpt: string
  text: string
}

export interface Scored {
  candidate: index.Candidate
  score: number
  analyser: Analyser
  terms: ReadonlySet<string>
}

export interface Retrieval {
  ranking: 'keyword' | 'hybrid'
  /** Best first, after min_score and top_k. */
  results: Scored[]
  /** Score of the best candidate (before min_score), 0 when none. */
  best: number
  /** Distinct analysed terms of the question over the bases' languages (empty: only stop words). */
  terms: string[]
  knowledgeBaseIds: string[]
}

/**
 * Search over the database's full-text index (see knowledge-index.repository.ts), scored in JS the same
 * way on both engines. The score of a result, in [0, 1]:
 *
 *   score = coverage × (0.6 + 0.4 × relative)
 *
 * coverage — share of the question's distinct terms (stop words dropped, stemmed) found in the chunk's
 * title, headings or text; relative — the engine's rank score divided by the best candidate's (keyword),
 * or, hybrid, the fusion 0.4 × that + 0.6 × max(0, cosine(question, chunk)) divided by the best fusion.
 * So a chunk holding every term of the question and ranked first scores 1, one holding half of them at
 * most 0.5, whatever the engine.
 */
export class KnowledgeSearchService {
  constructor(
    private readonly k: Kernel,
    private readonly gaps: KnowledgeGapsService,
  ) {}

  async retrieve(
    tenant: Tenant,
    query: string,
    opts: { knowledgeBaseIds?: string[]; topK?: number; minScore?: number; filters?: index.MetadataFilter } = {},
  ): Promise<Retrieval> {
    const bases = await index.searchableBases(this.k.db, tenant, opts.knowledgeBaseIds)
    for (const id of opts.knowledgeBaseIds ?? []) if (!bases.some((b) => b.id === id)) throw notFound('knowledge base', id)
    const kbIds = bases.map((b) => b.id)
    const analysers = new Map(bases.map((b) => [b.id, analyserFor(b.language)]))
    const termsByLanguage = new Map<string, string[]>()
    for (const a of analysers.values()) if (!termsByLanguage.has(a.language)) termsByLanguage.set(a.language, queryTerms(query, a))
    const terms = [...new Set([...termsByLanguage.values()].flat())]
    const empty: Retrieval = { ranking: 'keyword', results: [], best: 0, terms, knowledgeBaseIds: kbIds }
    if (terms.length === 0 || kbIds.length === 0) return empty

    const embeddings = this.k.embeddings
    const [candidates, queryVector] = await Promise.all([
      index.searchCandidates(this.k.db, tenant, { kbIds, terms, filters: opts.filters ?? {}, limit: CANDIDATES, withVectors: !!embeddings }),
      embeddings
        ? embeddings.embed([query]).then(
            ([v]) => v,
            (err: unknown) => {
              // A search still answers when the provider is down: keyword ranking, and the response says so.
              this.k.log.warn({ err }, 'query embedding failed; keyword ranking only')
              return null
            },
          )
        : null,
    ])
    if (candidates.length === 0) return { ...empty, ranking: queryVector ? 'hybrid' : 'keyword' }

    const maxRaw = Math.max(...candidates.map((c) => c.raw)) || 1
    const fused = candidates.map((c) => {
      const keyword = c.raw / maxRaw
      if (!queryVector || !embeddings) return keyword
      const sim = c.embedding && c.embedding_model === embeddings.model ? cosine(queryVector, vectorFromBytes(c.embedding)) : 0
      return (1 - VECTOR_WEIGHT) * keyword + VECTOR_WEIGHT * Math.max(0, sim)
    })
    const maxFused = Math.max(...fused) || 1
    const scored: (Scored & { rank: number })[] = candidates.map((c, i) => {
      const analyser = analysers.get(c.knowledge_base_id) ?? analyserFor('en')
      const asked = termsByLanguage.get(analyser.language) ?? terms
      const have = new Set(c.terms.split(' '))
      const coverage = asked.length === 0 ? 0 : asked.filter((t) => have.has(t)).length / asked.length
      const score = Math.round(coverage * (0.6 + 0.4 * (fused[i] / maxFused)) * 10000) / 10000
      return { candidate: c, score, analyser, terms: new Set(asked), rank: fused[i] }
    })
    scored.sort((a, b) => b.score - a.score || b.rank - a.rank || a.candidate.chunk_id.localeCompare(b.candidate.chunk_id))
    const best = scored[0]?.score ?? 0
    const results = scored.filter((s) => s.score > 0 && s.score >= (opts.minScore ?? 0)).slice(0, opts.topK ?? TOP_K.default)
    return { ranking: queryVector ? 'hybrid' : 'keyword', results, best, terms, knowledgeBaseIds: kbIds }
  }

  /** POST /knowledge/search: results with citations, an optional answer, and the gap it was recorded in. */
  async search(owner: Tenant, body: SearchKnowledgeBodyT): Promise<KnowledgeSearchT> {
    const tenant: Tenant = { workspaceId: owner.workspaceId, mode: owner.mode }
    const r = await this.retrieve(tenant, body.query, {
      knowledgeBaseIds: body.knowledge_base_ids,
      topK: body.top_k,
      minScore: body.min_score,
      filters: body.filters?.metadata,
    })
    const results = r.results.map(resultView)
    const answer = body.answer ? await answerFrom(this.k, body.query, r, GAP_THRESHOLD) : null
    // The transaction is the request's own (its Idempotency-Key commits with the response) and holds
    // the gap write when the question was not answered well enough.
    return this.k.transaction(owner, async (tx) => {
      const gap = this.shouldRecord(r)
        ? await this.gaps.record(tx, tenant, { question: body.query, terms: r.terms, bestScore: r.best, knowledgeBaseIds: r.knowledgeBaseIds })
        : null
      return { object: 'knowledge_search' as const, query: body.query, ranking: r.ranking, results, answer, gap: gap ? { id: gap.id } : null }
    })
  }

  /**
   * Passages for other modules (inbox drafts now, bots later), with the same citations as a search. A
   * question the knowledge answers poorly is recorded as a gap, as a search would.
   */
  async passages(tenant: Tenant, query: string, opts: { knowledgeBaseIds?: string[]; topK: number }): Promise<KnowledgePassage[]> {
    const r = await this.retrieve(tenant, query, { knowledgeBaseIds: opts.knowledgeBaseIds, topK: opts.topK })
    if (this.shouldRecord(r)) {
      await this.k.transaction(null, (tx) => this.gaps.record(tx, tenant, { question: query, terms: r.terms, bestScore: r.best, knowledgeBaseIds: r.knowledgeBaseIds }))
    }
    return r.results.map((s) => {
      const v = resultView(s)
      return { ...v.citation, score: v.score, excerpt: v.excerpt, text: s.candidate.text }
    })
  }

  /** The best answer a base gives to a question now (for gap resolution). */
  async bestAnswer(tenant: Tenant, question: string, kbId: string): Promise<BestAnswer> {
    const r = await this.retrieve(tenant, question, { knowledgeBaseIds: [kbId], topK: 1 })
    const top = r.results[0]
    return top ? { score: top.score, documentId: top.candidate.document_id } : null
  }

  /** A question with content words, asked of at least one base, whose best result is below the threshold. */
  private shouldRecord(r: Retrieval): boolean {
    return r.terms.length > 0 && r.knowledgeBaseIds.length > 0 && r.best < GAP_THRESHOLD
  }

  /** The module's usage counter: successful searches per UTC day (metric `knowledge_searches`). */
  async usage(tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
    return (await index.searchesPerDay(this.k.db, tenant, from, to)).map((r) => ({ day: r.day, metric: 'knowledge_searches', count: r.count }))
  }
}

export function resultView(s: Scored): KnowledgeSearchResultT {
  const c = s.candidate
  return {
    score: s.score,
    excerpt: markedExcerpt(c.text, s.terms, s.analyser),
    citation: {
      document_id: c.document_id,
      knowledge_base_id: c.knowledge_base_id,
      title: c.title,
      source_url: c.source_url,
      chunk_id: c.chunk_id,
      start: Number(c.start_offset),
      end: Number(c.end_offset),
      heading_path: JSON.parse(c.heading_path) as string[],
      page: c.page === null ? null : Number(c.page),
    },
  }
}
