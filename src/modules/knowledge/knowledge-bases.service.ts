import { iso } from '../../kernel/clock.js'
import { toJson, type Tx } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { DeleteKnowledgeBasePayload } from './jobs/delete-knowledge-base.job.js'
import type { ReprocessKnowledgeBasePayload } from './jobs/reprocess-knowledge-base.job.js'
import { removeIndex } from './knowledge-index.repository.js'
import * as repo from './knowledge.repository.js'
import { CHUNK_OVERLAP_DEFAULT, CHUNK_SIZE, type CreateKnowledgeBaseBodyT, type KnowledgeBaseT, type UpdateKnowledgeBaseBodyT } from './knowledge.schemas.js'
import type { KnowledgeBasesTable } from './knowledge.tables.js'
import { baseView, deletedView } from './knowledge.views.js'

/** A base this small is deleted inside the request; a larger one in the background, in batches. */
export const INLINE_DELETE = { documents: 100, chunks: 2000 }

/** Work that other parts of the module attach to a base's deletion (crawls, gaps): runs in its last transaction. */
export type BaseCleanup = (tx: Tx, tenant: Tenant, kbId: string) => Promise<void>

export interface BaseJobs {
  deleteBase: JobDefinition<DeleteKnowledgeBasePayload>
  reprocessBase: JobDefinition<ReprocessKnowledgeBasePayload>
}

/** Knowledge bases: settings (language, chunking), counters, deletion (inline or in the background). */
export class KnowledgeBasesService {
  /** Filled by the façade (knowledge.service.ts) with the crawl and gap clean-ups. */
  readonly cleanups: BaseCleanup[] = []

  constructor(
    private readonly k: Kernel,
    private readonly jobs: BaseJobs,
  ) {}

  async list(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<KnowledgeBaseT>> {
    return this.k.paginate({
      list: 'listKnowledgeBases',
      tenant,
      query: q,
      fetch: (page) => repo.listBases(this.k.db, tenant, page),
      key: (r) => r.id,
      view: baseView,
    })
  }

  async get(tenant: Tenant, id: string): Promise<KnowledgeBaseT> {
    return baseView(await findBaseOr404(this.k.db, tenant, id))
  }

  async create(tenant: Tenant, body: CreateKnowledgeBaseBodyT): Promise<KnowledgeBaseT> {
    const chunking = validChunking(body.chunking)
    const now = iso(this.k.clock.now())
    const row: KnowledgeBasesTable = {
      id: newId('kb'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      description: body.description ?? null,
      language: body.language ?? 'en',
      chunk_size: chunking.size,
      chunk_overlap: chunking.overlap,
      document_count: 0,
      chunk_count: 0,
      last_crawl: null,
      metadata: toJson(body.metadata ?? {}),
      deleting: 0,
      created_at: now,
      updated_at: now,
    }
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertBase(tx, row)
      const view = baseView(row)
      await this.k.events.emit(tx, tenant, 'knowledge_base.created', view)
      return view
    })
  }

  /** A new language or chunking re-processes every ready document in the background (old chunks stay searchable meanwhile). */
  async update(tenant: Tenant, id: string, body: UpdateKnowledgeBaseBodyT): Promise<KnowledgeBaseT> {
    return this.k.transaction(tenant, async (tx) => {
      const row = await findBaseOr404(tx, tenant, id, { forUpdate: true })
      const patch: Partial<KnowledgeBasesTable> = { updated_at: iso(this.k.clock.now()) }
      if (body.name !== undefined) patch.name = body.name
      if (body.description !== undefined) patch.description = body.description
      if (body.metadata !== undefined) patch.metadata = toJson(body.metadata)
      if (body.language !== undefined) patch.language = body.language
      if (body.chunking !== undefined) {
        const c = validChunking(body.chunking)
        patch.chunk_size = c.size
        patch.chunk_overlap = c.overlap
      }
      const next = { ...row, ...patch }
      await repo.updateBase(tx, tenant, id, patch)
      const reprocess = next.language !== row.language || next.chunk_size !== row.chunk_size || next.chunk_overlap !== row.chunk_overlap
      if (reprocess && row.document_count > 0) {
        await enqueue(tx, this.k.clock, this.jobs.reprocessBase, { workspace_id: tenant.workspaceId, mode: tenant.mode, knowledge_base_id: id, after: null })
      }
      const view = baseView(next)
      await this.k.events.emit(tx, tenant, 'knowledge_base.updated', view)
      return view
    })
  }

  /** The base answers 404 from now on; its content goes now (small) or in the background (large). */
  async delete(tenant: Tenant, id: string): Promise<{ id: string; object: 'knowledge_base'; deleted: true }> {
    return this.k.transaction(tenant, async (tx) => {
      const row = await findBaseOr404(tx, tenant, id, { forUpdate: true })
      if (row.document_count <= INLINE_DELETE.documents && row.chunk_count <= INLINE_DELETE.chunks) {
        const docs = await repo.documentIdsOfBase(tx, tenant, id, null, INLINE_DELETE.documents + 1)
        if (docs.length <= INLINE_DELETE.documents) {
          await repo.deleteDocumentRows(
            tx,
            tenant,
            docs.map((d) => d.id),
          )
          await this.finishDeletion(tx, tenant, id)
          await this.k.events.emit(tx, tenant, 'knowledge_base.deleted', deletedView(id, 'knowledge_base'))
          return deletedView(id, 'knowledge_base')
        }
      }
      await repo.updateBase(tx, tenant, id, { deleting: 1, updated_at: iso(this.k.clock.now()) })
      await enqueue(tx, this.k.clock, this.jobs.deleteBase, { workspace_id: tenant.workspaceId, mode: tenant.mode, knowledge_base_id: id })
      await this.k.events.emit(tx, tenant, 'knowledge_base.deleted', deletedView(id, 'knowledge_base'))
      return deletedView(id, 'knowledge_base')
    })
  }

  /** The last step of a deletion: what is left of the index, the clean-ups, and the base row. */
  async finishDeletion(tx: Tx, tenant: Tenant, id: string): Promise<void> {
    await removeIndex(tx, tenant, { knowledgeBaseId: id })
    for (const cleanup of this.cleanups) await cleanup(tx, tenant, id)
    await repo.deleteBaseRow(tx, tenant, id)
  }

  /** The crawler records the summary of a base's latest crawl here. */
  async setLastCrawl(tx: Tx, tenant: Tenant, kbId: string, summary: object): Promise<void> {
    await repo.updateBase(tx, tenant, kbId, { last_crawl: toJson(summary) })
  }
}

export async function findBaseOr404(db: Parameters<typeof repo.findBase>[0], tenant: Tenant, id: string, opts: { forUpdate?: boolean } = {}): Promise<KnowledgeBasesTable> {
  const row = await repo.findBase(db, tenant, id, opts)
  if (!row) throw notFound('knowledge base', id)
  return row
}

function validChunking(c: { size: number; overlap: number } | undefined): { size: number; overlap: number } {
  const size = c?.size ?? CHUNK_SIZE.default
  const overlap = c?.overlap ?? Math.min(CHUNK_OVERLAP_DEFAULT, Math.floor(size / 2))
  if (overlap * 2 > size) {
    throw new AppError('validation_failed', `chunking.overlap (${overlap}) must be at most half of chunking.size (${size}).`, {
      errors: [{ pointer: '/body/chunking/overlap', detail: `must be at most ${Math.floor(size / 2)}` }],
    })
  }
  return { size, overlap }
}
