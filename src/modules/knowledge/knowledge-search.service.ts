import { cosine, vectorFromBytes } from '../../kernel/ai/embeddings.js'
import { sideOwner } from '../../kernel/audit/audit.js'
import { notFound } from '../../kernel/errors.js'
import { claimFor } from '../../kernel/http/idempotency.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { BestAnswer, KnowledgeGapsService } from './knowledge-gaps.service.js'
import * as index from './knowledge-index.repository.js'
import { planFilters, relevanceScorer } from './knowledge-ranking.js'
import { readSearchStats } from './knowledge-stats.repository.js'
import { answerFrom } from './knowledge.answer.js'
import { ANSWERED_THRESHOLD, isAnswered } from './knowledge.relevance.js'
import type { KnowledgeCitationT, KnowledgeSearchResultT, KnowledgeSearchT, SearchKnowledgeBodyT } from './knowledge.search.schemas.js'
import { TOP_K } from './knowledge.search.schemas.js'
import { analyserFor, markedExcerpt, queryTerms, type Analyser } from './knowledge.text.js'
import { invalidReference } from '../../kernel/references.js'

/** Candidates the engine selects and pre-ranks, scored by BM25F in JS and (hybrid) re-ranked. */
export const CANDIDATES = 100
/** Hybrid fusion: weight of the cosine similarity against the normalised keyword score. */
const VECTOR_WEIGHT = 0.6

/** A passage for other modules (inbox drafts, later bots): a search result with its full text. */
export interface KnowledgePassage extends KnowledgeCitationT {
  score: number
  excerpt: string
  text: string
}

/** A result chunk: what the engine selected and what its citation needs. */
export type Hit = index.Candidate & index.Passage

export interface Scored {
  candidate: Hit
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
 * Search over the database's full-text index (see knowledge-index.repository.ts): the engine selects and
 * pre-ranks candidates on the question's rare terms (knowledge-ranking.ts plans it from the per-base
 * statistics), and every candidate is scored by BM25F in JS over all the question's terms, the same way
 * on both engines. The score of a result, in [0, 1]:
 *
 *   keyword: score = min(1, BM25F / Σ idf)      hybrid: score = 0.4 × keyword score + 0.6 × max(0, cosine)
 *
 * Σ idf is the BM25F of a chunk holding each question term once in a text of average length, so a chunk
 * holding every term scores about 1 and one holding the terms that carry half the question's weight about
 * 0.5. Results are ordered by score, then BM25F: best first, scores never increasing.
 */
export class KnowledgeSearchService {
  constructor(
    private readonly k: Kernel,
    private readonly gaps: KnowledgeGapsService,
  ) {}

  /**
   * The languages of the bases each selection (tenant and asked ids) had at its last search in this
   * process. Only a guess of which analysed terms to ask statistics for, so the bases, their totals and
   * the terms' document frequencies come in one statement: that statement returns the bases' current
   * languages, and a search whose bases turn out to have another language asks again for the terms it
   * lacks. Every number a search uses comes from the database, as on every other node.
   */
  private readonly languages = new Map<string, string[]>()

  async retrieve(
    tenant: Tenant,
    query: string,
    opts: { knowledgeBaseIds?: string[]; topK?: number; minScore?: number; filters?: index.MetadataFilter; skipMissingBases?: boolean; basesPointer?: string } = {},
  ): Promise<Retrieval> {
    const termsByLanguage = new Map<string, string[]>()
    const termsIn = (language: string) => {
      let t = termsByLanguage.get(language)
      if (!t) termsByLanguage.set(language, (t = queryTerms(query, analyserFor(language))))
      return t
    }
    const selection = `${tenant.workspaceId}:${tenant.mode}:${opts.knowledgeBaseIds?.join(',') ?? '*'}`
    const guessed = this.languages.get(selection) ?? []
    const asked = new Set(guessed.flatMap(termsIn))
    const read = await readSearchStats(this.k.db, tenant, opts.knowledgeBaseIds, [...asked])
    const bases = read.bases
    if (!opts.skipMissingBases) {
      for (const [i, id] of (opts.knowledgeBaseIds ?? []).entries()) {
        if (bases.some((b) => b.id === id)) continue
        // Named in a request body: the request's own error (422 with a pointer), not a missing target.
        throw opts.basesPointer ? invalidReference(`${opts.basesPointer}/${i}`, `No knowledge base with id '${id}' exists in this workspace.`) : notFound('knowledge base', id)
      }
    }
    const kbIds = bases.map((b) => b.id)
    const analysers = new Map(bases.map((b) => [b.id, analyserFor(b.language)]))
    const languages = [...new Set([...analysers.values()].map((a) => a.language))].sort()
    if (languages.join() !== guessed.join()) {
      if (this.languages.size >= 10_000) this.languages.clear()
      this.languages.set(selection, languages)
    }
    const terms = [...new Set(languages.flatMap(termsIn))]
    const empty: Retrieval = { ranking: 'keyword', results: [], best: 0, terms, knowledgeBaseIds: kbIds }
    if (terms.length === 0 || kbIds.length === 0) return empty
    // The first search of a selection here, or its bases' languages changed: the terms' statistics now.
    const stats = terms.every((t) => asked.has(t)) ? read.stats : (await readSearchStats(this.k.db, tenant, kbIds, terms)).stats

    const embeddings = this.k.embeddings
    const [candidates, queryVector] = await Promise.all([
      index.searchCandidates(this.k.db, tenant, { kbIds, plans: planFilters(terms, stats), filters: opts.filters ?? {}, limit: CANDIDATES, withVectors: !!embeddings }),
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
    const ranking = queryVector ? 'hybrid' : 'keyword'
    if (candidates.length === 0) return { ...empty, ranking }

    // One scorer per language of the searched bases (a base scores its own language's terms).
    const scorers = new Map<string, ReturnType<typeof relevanceScorer>>()
    const scored = candidates.map((c) => {
      const analyser = analysers.get(c.knowledge_base_id) ?? analyserFor('en')
      const asked = termsByLanguage.get(analyser.language) ?? terms
      let scorer = scorers.get(analyser.language)
      if (!scorer) scorers.set(analyser.language, (scorer = relevanceScorer(asked, stats)))
      const k = scorer(c)
      let score = k.score
      let order = k.order
      if (queryVector && embeddings) {
        const sim = c.embedding && c.embedding_model === embeddings.model ? cosine(queryVector, vectorFromBytes(c.embedding)) : 0
        score = order = (1 - VECTOR_WEIGHT) * k.score + VECTOR_WEIGHT * Math.max(0, sim) * c.prose
      }
      return { c, analyser, asked, score: Math.round(score * 10000) / 10000, order }
    })
    // By score, then BM25F (several chunks may score 1; bases of other languages have other idf sums).
    scored.sort((a, b) => b.score - a.score || b.order - a.order || (a.c.chunk_id < b.c.chunk_id ? -1 : 1))
    const best = scored[0]?.score ?? 0
    const kept = scored.filter((s) => s.score > 0 && s.score >= (opts.minScore ?? 0)).slice(0, opts.topK ?? TOP_K.default)
    const passages = await index.passagesOf(
      this.k.db,
      tenant,
      kept.map((s) => s.c.rid),
    )
    const results: Scored[] = []
    for (const s of kept) {
      const p = passages.get(s.c.rid)
      // A chunk deleted between the two reads is left out.
      if (p) results.push({ candidate: { ...s.c, ...p }, score: s.score, analyser: s.analyser, terms: new Set(s.asked) })
    }
    return { ranking, results, best, terms, knowledgeBaseIds: kbIds }
  }

  /** POST /knowledge/search: results with citations, an optional answer, and the gap it was recorded in. */
  async search(owner: Tenant, body: SearchKnowledgeBodyT): Promise<KnowledgeSearchT> {
    const tenant: Tenant = { workspaceId: owner.workspaceId, mode: owner.mode }
    const r = await this.retrieve(tenant, body.query, {
      knowledgeBaseIds: body.knowledge_base_ids,
      basesPointer: '/body/knowledge_base_ids',
      topK: body.top_k,
      minScore: body.min_score,
      filters: body.filters?.metadata,
    })
    const results = r.results.map(resultView)
    const answer = body.answer ? await answerFrom(this.k, body.query, r, ANSWERED_THRESHOLD) : null
    const view = (gap: { id: string } | null): KnowledgeSearchT => ({ object: 'knowledge_search', query: body.query, ranking: r.ranking, results, answer, gap })
    const record = this.shouldRecord(r)
    // Nothing to write and no Idempotency-Key to commit: no transaction (on PostgreSQL, two round trips).
    if (!record && !claimFor(owner)) return view(null)
    // The transaction is the request's own (its Idempotency-Key commits with the response) and holds
    // the gap write when the question was not answered well enough.
    return this.k.transaction(owner, async (tx) => {
      const gap = record ? await this.gaps.record(tx, tenant, { question: body.query, terms: r.terms, bestScore: r.best, knowledgeBaseIds: r.knowledgeBaseIds }) : null
      return view(gap ? { id: gap.id } : null)
    })
  }

  /**
   * Passages for other modules (inbox drafts, bots, agents, the search_knowledge tool), with the same
   * citations as a search. A base deleted since the caller stored its id is skipped (a bot version or an
   * agent run keeps the ids it had). A question the knowledge answers poorly is recorded as a gap, as a
   * search would — unless `recordGaps` is false (a dry-run writes nothing).
   */
  async passages(tenant: Tenant, query: string, opts: { knowledgeBaseIds?: string[]; topK: number; recordGaps?: boolean }): Promise<KnowledgePassage[]> {
    const r = await this.retrieve(tenant, query, { knowledgeBaseIds: opts.knowledgeBaseIds, topK: opts.topK, skipMissingBases: true })
    if (opts.recordGaps !== false && this.shouldRecord(r)) {
      await this.k.transaction(sideOwner(tenant), (tx) => this.gaps.record(tx, tenant, { question: query, terms: r.terms, bestScore: r.best, knowledgeBaseIds: r.knowledgeBaseIds }))
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
    return r.terms.length > 0 && r.knowledgeBaseIds.length > 0 && !isAnswered(r.best)
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
