import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import type { Tx } from '../../kernel/db/database.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './knowledge-gaps.repository.js'
import { isAnswered } from './knowledge.relevance.js'
import type { KnowledgeGapsTable } from './knowledge.search.tables.js'
import type { KnowledgeGapT, ListKnowledgeGapsQueryT } from './knowledge.search.schemas.js'

/** Two questions are one gap when the Jaccard similarity of their term sets reaches this. */
export const GAP_SIMILARITY = 0.5
/** Example questions kept per gap. */
export const GAP_EXAMPLES = 5
/** Open gaps a newly ready document is checked against (most recently asked first). */
const RESOLVE_BATCH = 200
/** Gaps read per query when a deleted base is detached from them. */
const DETACH_BATCH = 500

const parse = <T>(json: string): T => JSON.parse(json) as T

export function gapView(row: KnowledgeGapsTable): KnowledgeGapT {
  return {
    id: row.id,
    object: 'knowledge_gap',
    question: row.question,
    examples: parse<string[]>(row.examples),
    count: Number(row.count),
    first_seen_at: row.first_seen_at,
    last_seen_at: row.last_seen_at,
    best_score: Number(row.best_score),
    knowledge_base_ids: parse<string[]>(row.knowledge_base_ids),
    status: row.status,
    resolved_at: row.resolved_at,
    resolved_by_document_id: row.resolved_by_document_id,
    created_at: row.created_at,
    updated_at: row.updated_at,
  }
}

/** What a run of a gap's question against a base found: its best score and the document it came from. */
export type BestAnswer = { score: number; documentId: string } | null

/**
 * Knowledge gaps: questions the knowledge could not answer, grouped. A question joins the open gap whose
 * term set is most similar to its own (Jaccard ≥ GAP_SIMILARITY, looked up in the database through the
 * gap terms table), else opens a new gap. A gap resolves by itself when a newly ready document of one of
 * its bases answers its representative question at ANSWERED_THRESHOLD (knowledge.relevance.ts) or better.
 */
export class KnowledgeGapsService {
  constructor(private readonly k: Kernel) {}

  /** Record a question in the caller's transaction; returns the gap it joined or opened. */
  async record(tx: Tx, tenant: Tenant, q: { question: string; terms: string[]; bestScore: number; knowledgeBaseIds: string[] }): Promise<{ id: string; opened: boolean }> {
    const terms = [...new Set(q.terms)].sort()
    const now = iso(this.k.clock.now())
    const score = Math.round(q.bestScore * 10000) / 10000
    const question = q.question.trim().slice(0, 500)
    let match: { id: string; similarity: number } | null = null
    for (const c of await repo.similarOpenGaps(tx, tenant, terms)) {
      const similarity = c.shared / (terms.length + c.term_count - c.shared)
      if (similarity >= GAP_SIMILARITY && (!match || similarity > match.similarity)) match = { id: c.id, similarity }
    }
    const existing = match ? await repo.findGap(tx, tenant, match.id) : undefined
    if (existing) {
      const examples = parse<string[]>(existing.examples)
      if (examples.length < GAP_EXAMPLES && !examples.some((e) => e.toLowerCase() === question.toLowerCase())) examples.push(question)
      const bases = [...new Set([...parse<string[]>(existing.knowledge_base_ids), ...q.knowledgeBaseIds])].sort()
      await repo.updateGap(tx, tenant, existing.id, {
        examples: JSON.stringify(examples),
        last_seen_at: now,
        best_score: Math.max(Number(existing.best_score), score),
        knowledge_base_ids: JSON.stringify(bases),
        updated_at: now,
      })
      return { id: existing.id, opened: false }
    }
    const row: KnowledgeGapsTable = {
      id: newId('gap'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      question,
      examples: JSON.stringify([question]),
      signature: terms.join(' '),
      term_count: terms.length,
      count: 1,
      first_seen_at: now,
      last_seen_at: now,
      best_score: score,
      knowledge_base_ids: JSON.stringify([...new Set(q.knowledgeBaseIds)].sort()),
      status: 'open',
      resolved_at: null,
      resolved_by_document_id: null,
      created_at: now,
      updated_at: now,
    }
    await repo.insertGap(tx, row, terms)
    await this.k.events.emit(tx, tenant, 'knowledge_gap.opened', gapView(row))
    return { id: row.id, opened: true }
  }

  list(tenant: Tenant, query: ListKnowledgeGapsQueryT): Promise<PageResult<KnowledgeGapT>> {
    const order = query.order ?? 'recent'
    return this.k.paginate({
      list: 'listKnowledgeGaps',
      tenant,
      filters: { status: query.status, knowledge_base_id: query.knowledge_base_id, order },
      query,
      keyShape: repo.GAP_KEY_SHAPE[order],
      fetch: ({ after, limit }) => repo.listGaps(this.k.db, tenant, { status: query.status, knowledgeBaseId: query.knowledge_base_id, order, after, take: limit + 1 }),
      key: (row) => repo.gapKey(row, order),
      view: gapView,
    })
  }

  /**
   * A base's deletion (KnowledgeBasesService.cleanups, in its last transaction): its id leaves every gap
   * asked of it, and a gap asked of no other base goes, since nothing is left that could answer it.
   * Paged by id so a base with many gaps never loads them all.
   */
  readonly detachBase = async (tx: Tx, tenant: Tenant, kbId: string): Promise<void> => {
    const at = iso(this.k.clock.now())
    for (let after: string | null = null; ;) {
      const page = await repo.gapsOfBase(tx, tenant, kbId, after, DETACH_BATCH)
      if (page.length === 0) return
      const orphans: string[] = []
      for (const gap of page) {
        const rest = parse<string[]>(gap.knowledge_base_ids).filter((id) => id !== kbId)
        if (rest.length === 0) orphans.push(gap.id)
        else await repo.setGapBases(tx, tenant, gap.id, JSON.stringify(rest), at)
      }
      await repo.deleteGaps(tx, tenant, orphans)
      after = page[page.length - 1].id
    }
  }

  /**
   * Re-ask the open gaps of a base after one of its documents became ready; `answer` runs a question
   * against the base. Each gap answered at ANSWERED_THRESHOLD (knowledge.relevance.ts) or better resolves in its own transaction.
   */
  async resolveFor(tenant: Tenant, kbId: string, answer: (question: string) => Promise<BestAnswer>): Promise<number> {
    let resolved = 0
    for (const gap of await repo.openGapsOfBase(this.k.db, tenant, kbId, RESOLVE_BATCH)) {
      const best = await answer(gap.question)
      if (!best || !isAnswered(best.score)) continue
      await this.k.transaction(sideOwner(tenant), async (tx) => {
        const at = iso(this.k.clock.now())
        if (!(await repo.resolveGap(tx, tenant, gap.id, at, best.documentId, best.score))) return
        const row = await repo.findGap(tx, tenant, gap.id)
        if (row) await this.k.events.emit(tx, tenant, 'knowledge_gap.resolved', gapView(row))
        resolved++
      })
    }
    return resolved
  }
}
