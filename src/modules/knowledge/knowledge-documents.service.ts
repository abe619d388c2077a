import { createHash } from 'node:crypto'
import { iso } from '../../kernel/clock.js'
import { isUniqueViolation, toJson, type Executor, type Tx } from '../../kernel/db/database.js'
import { AppError, notFound } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { withStatus, type WithStatus } from '../../kernel/http/response-status.js'
import { newId } from '../../kernel/ids.js'
import { enqueue, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import { formatOf, type DocumentFormat } from './ingest/index.js'
import type { ProcessDocumentPayload } from './jobs/process-document.job.js'
import { findBaseOr404, type KnowledgeBasesService } from './knowledge-bases.service.js'
import { removeIndex } from './knowledge-index.repository.js'
import * as repo from './knowledge.repository.js'
import type { DocumentStatus, KnowledgeBasesTable, KnowledgeDocumentsTable } from './knowledge.tables.js'
import type { KnowledgeDocumentDetailT, KnowledgeDocumentT, UploadKnowledgeDocumentBodyT, UploadKnowledgeDocumentFormT } from './knowledge.schemas.js'
import { chunkView, deletedView, documentView } from './knowledge.views.js'

/** What a new document is made from, whichever way it arrived. */
interface Incoming {
  title: string
  filename: string | null
  contentType: string
  format: DocumentFormat
  origin: 'api' | 'upload'
  sourceUrl: string | null
  metadata: Record<string, string>
  bytes: Buffer
}

/**
 * An upload's answer: 202 with the document queued, or 200 with the document that already holds the same
 * bytes (nothing queued). Decided in the transaction, so a replay of its Idempotency-Key keeps the status.
 */
export type UploadOutcome = WithStatus<KnowledgeDocumentT>

/**
 * Documents: upload (JSON text or a file), duplicate detection by checksum, the processing queue, reads
 * with chunks, deletion; and the crawler's seam (upsertFromSource, sourcePages, removeDocuments).
 */
export class KnowledgeDocumentsService {
  constructor(
    private readonly k: Kernel,
    private readonly bases: KnowledgeBasesService,
    private readonly processJob: JobDefinition<ProcessDocumentPayload>,
  ) {}

  private get maxBytes(): number {
    return this.k.config.knowledge.maxUploadBytes
  }

  async list(tenant: Tenant, kbId: string, q: { cursor?: string; limit?: number; status?: DocumentStatus }): Promise<PageResult<KnowledgeDocumentT>> {
    await findBaseOr404(this.k.db, tenant, kbId)
    return this.k.paginate({
      list: 'listKnowledgeDocuments',
      tenant,
      filters: { knowledge_base_id: kbId, status: q.status },
      query: q,
      fetch: (page) => repo.listDocuments(this.k.db, tenant, kbId, { status: q.status }, page),
      key: (r) => r.id,
      view: documentView,
    })
  }

  async get(tenant: Tenant, id: string, include: string | undefined): Promise<KnowledgeDocumentDetailT> {
    const wants = new Set((include ?? '').split(',').filter(Boolean))
    const row = wants.has('text') ? await repo.findDocumentFull(this.k.db, tenant, id) : await repo.findDocument(this.k.db, tenant, id)
    if (!row || !(await repo.findBase(this.k.db, tenant, row.knowledge_base_id))) throw notFound('knowledge document', id)
    const view: KnowledgeDocumentDetailT = documentView(row)
    if (wants.has('text')) view.text = (row as KnowledgeDocumentsTable).text
    if (wants.has('chunks')) view.chunks = (await repo.listChunks(this.k.db, tenant, id)).map(chunkView)
    return view
  }

  /** JSON upload: `text` read as text/plain (default), Markdown or HTML. */
  async create(tenant: Tenant, kbId: string, body: UploadKnowledgeDocumentBodyT): Promise<UploadOutcome> {
    const bytes = Buffer.from(body.text, 'utf8')
    this.checkSize(bytes.length)
    const contentType = body.content_type ?? 'text/plain'
    const format = formatOf(contentType) ?? 'text'
    return this.add(tenant, kbId, { title: body.title, filename: null, contentType, format, origin: 'api', sourceUrl: body.source_url ?? null, metadata: body.metadata ?? {}, bytes })
  }

  /** multipart/form-data upload: the format comes from the part's content type, else the file name. */
  async upload(tenant: Tenant, kbId: string, form: UploadKnowledgeDocumentFormT): Promise<UploadOutcome> {
    const file = form.file
    const bytes = file.data
    this.checkSize(bytes.length)
    const format = formatOf(file.content_type, file.filename)
    if (!format) {
      throw new AppError(
        'document_type_unsupported',
        `"${file.filename}" (${file.content_type || 'no content type'}) is not a supported document type; upload plain text, Markdown, HTML, PDF or DOCX.`,
      )
    }
    if (bytes.length === 0) {
      throw new AppError('validation_failed', 'The file is empty.', { errors: [{ pointer: '/body/file', detail: 'is empty' }] })
    }
    const filename = file.filename ? file.filename.slice(0, 500) : null
    return this.add(tenant, kbId, {
      title: form.title ?? filename ?? 'Untitled',
      filename,
      contentType: file.content_type || 'application/octet-stream',
      format,
      origin: 'upload',
      sourceUrl: form.source_url ?? null,
      metadata: parseFormMetadata(form.metadata),
      bytes,
    })
  }

  private checkSize(size: number): void {
    if (size > this.maxBytes) {
      throw new AppError('payload_too_large', `The document is ${size} bytes; the limit is ${this.maxBytes} bytes (KNOWLEDGE_MAX_UPLOAD_BYTES).`)
    }
  }

  /** Same bytes already in the base (and not failed): that document, nothing queued. */
  private async add(tenant: Tenant, kbId: string, d: Incoming): Promise<UploadOutcome> {
    const checksum = createHash('sha256').update(d.bytes).digest('hex')
    const work = () =>
      this.k.transaction(tenant, async (tx) => {
        await findBaseOr404(tx, tenant, kbId, { forUpdate: true })
        const existing = await repo.findDuplicate(tx, tenant, kbId, checksum)
        if (existing) return withStatus(200, documentView(existing))
        const now = iso(this.k.clock.now())
        const row: KnowledgeDocumentsTable = {
          id: newId('doc'),
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          knowledge_base_id: kbId,
          title: d.title,
          filename: d.filename,
          content_type: d.contentType,
          format: d.format,
          origin: d.origin,
          source_url: d.sourceUrl,
          crawl_id: null,
          etag: null,
          last_modified: null,
          checksum,
          dedupe_key: checksum,
          size_bytes: d.bytes.length,
          status: 'queued',
          error: null,
          text: null,
          structure: null,
          page_count: null,
          chunk_count: 0,
          metadata: toJson(d.metadata),
          created_at: now,
          updated_at: now,
        }
        await this.queue(tx, tenant, row, d.bytes)
        await repo.adjustBaseCounts(tx, tenant, kbId, { documents: 1 }, now)
        return withStatus(202, documentView(row))
      })
    try {
      return await work()
    } catch (err) {
      // The same bytes arrived twice at once: the other request's document is the answer.
      if (!isUniqueViolation(err)) throw err
      const existing = await repo.findDuplicate(this.k.db, tenant, kbId, checksum)
      if (!existing) throw err
      return withStatus(200, documentView(existing))
    }
  }

  private async queue(tx: Tx, tenant: Tenant, row: KnowledgeDocumentsTable, bytes: Buffer): Promise<void> {
    await repo.insertDocument(tx, row)
    await repo.putSource(tx, { document_id: row.id, workspace_id: tenant.workspaceId, mode: tenant.mode, body: bytes })
    await enqueue(tx, this.k.clock, this.processJob, { workspace_id: tenant.workspaceId, mode: tenant.mode, document_id: row.id })
  }

  async delete(tenant: Tenant, id: string): Promise<{ id: string; object: 'knowledge_document'; deleted: true }> {
    return this.k.transaction(tenant, async (tx) => {
      const row = await repo.findDocument(tx, tenant, id)
      if (!row || !(await repo.findBase(tx, tenant, row.knowledge_base_id, { forUpdate: true }))) throw notFound('knowledge document', id)
      await this.removeDocuments(tx, tenant, [id])
      return deletedView(id, 'knowledge_document')
    })
  }

  // ---- the crawler's seam ----

  /** Deletes documents with their chunks and index rows, updates the counters and emits knowledge_document.deleted. */
  async removeDocuments(tx: Tx, tenant: Tenant, ids: string[]): Promise<void> {
    const now = iso(this.k.clock.now())
    for (const id of ids) {
      const row = await repo.findDocument(tx, tenant, id)
      if (!row) continue
      await removeIndex(tx, tenant, { documentId: id })
      await repo.deleteDocumentRows(tx, tenant, [id])
      await repo.adjustBaseCounts(tx, tenant, row.knowledge_base_id, { documents: -1, chunks: -Number(row.chunk_count) }, now)
      await this.k.events.emit(tx, tenant, 'knowledge_document.deleted', deletedView(id, 'knowledge_document'))
    }
  }

  /**
   * A crawled page: the document of (base, source_url) is created, or updated when its bytes changed
   * (processed again; its old chunks stay searchable until then), or only refreshed (etag, last-modified).
   */
  async upsertFromSource(
    tx: Tx,
    tenant: Tenant,
    kbId: string,
    page: { sourceUrl: string; title: string | null; body: Buffer; format: DocumentFormat; contentType: string; checksum: string; crawlId: string; etag: string | null; lastModified: string | null },
  ): Promise<{ id: string; outcome: 'created' | 'updated' | 'unchanged' }> {
    // Locked first: a base's deletion locks the base, then its documents; the other order deadlocks with it.
    await findBaseOr404(tx, tenant, kbId, { forUpdate: true })
    const now = iso(this.k.clock.now())
    const existing = await repo.findBySourceUrl(tx, tenant, kbId, page.sourceUrl)
    if (existing && existing.checksum === page.checksum) {
      await repo.updateDocument(tx, tenant, existing.id, { etag: page.etag, last_modified: page.lastModified, crawl_id: page.crawlId })
      return { id: existing.id, outcome: 'unchanged' }
    }
    if (existing) {
      await repo.updateDocument(tx, tenant, existing.id, {
        ...(page.title ? { title: page.title.slice(0, 500) } : {}),
        content_type: page.contentType,
        format: page.format,
        crawl_id: page.crawlId,
        etag: page.etag,
        last_modified: page.lastModified,
        checksum: page.checksum,
        size_bytes: page.body.length,
        status: 'queued',
        error: null,
        updated_at: now,
      })
      await repo.putSource(tx, { document_id: existing.id, workspace_id: tenant.workspaceId, mode: tenant.mode, body: page.body })
      await enqueue(tx, this.k.clock, this.processJob, { workspace_id: tenant.workspaceId, mode: tenant.mode, document_id: existing.id })
      return { id: existing.id, outcome: 'updated' }
    }
    const row: KnowledgeDocumentsTable = {
      id: newId('doc'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      knowledge_base_id: kbId,
      title: (page.title ?? page.sourceUrl).slice(0, 500),
      filename: null,
      content_type: page.contentType,
      format: page.format,
      origin: 'crawl',
      source_url: page.sourceUrl,
      crawl_id: page.crawlId,
      etag: page.etag,
      last_modified: page.lastModified,
      checksum: page.checksum,
      dedupe_key: null,
      size_bytes: page.body.length,
      status: 'queued',
      error: null,
      text: null,
      structure: null,
      page_count: null,
      chunk_count: 0,
      metadata: toJson({}),
      created_at: now,
      updated_at: now,
    }
    await this.queue(tx, tenant, row, page.body)
    await repo.adjustBaseCounts(tx, tenant, kbId, { documents: 1 }, now)
    return { id: row.id, outcome: 'created' }
  }

  /** The base's crawled pages, for change detection and removal of pages that disappeared. */
  async sourcePages(db: Executor, tenant: Tenant, kbId: string): Promise<{ id: string; sourceUrl: string; etag: string | null; lastModified: string | null; checksum: string }[]> {
    const rows = await repo.crawledPages(db, tenant, kbId)
    return rows.map((r) => ({ id: r.id, sourceUrl: r.source_url ?? '', etag: r.etag, lastModified: r.last_modified, checksum: r.checksum }))
  }

  setLastCrawl(tx: Tx, tenant: Tenant, kbId: string, summary: object): Promise<void> {
    return this.bases.setLastCrawl(tx, tenant, kbId, summary)
  }

  findBaseOr404(db: Executor, tenant: Tenant, kbId: string, opts: { forUpdate?: boolean } = {}): Promise<KnowledgeBasesTable> {
    return findBaseOr404(db, tenant, kbId, opts)
  }
}

/** The form's `metadata`: JSON text of an object of strings (the JSON upload's `metadata`). */
function parseFormMetadata(raw: string | undefined): Record<string, string> {
  if (raw === undefined || raw.trim() === '') return {}
  const invalid = (detail: string) => new AppError('validation_failed', `metadata ${detail}.`, { errors: [{ pointer: '/body/metadata', detail }] })
  let value: unknown
  try {
    value = JSON.parse(raw)
  } catch {
    throw invalid('must be a JSON object')
  }
  if (value === null || typeof value !== 'object' || Array.isArray(value)) throw invalid('must be a JSON object')
  const entries = Object.entries(value as Record<string, unknown>)
  if (entries.length > 50) throw invalid('must have at most 50 keys')
  for (const [key, v] of entries) {
    if (key.length > 40) throw invalid(`key "${key.slice(0, 40)}…" is longer than 40 characters`)
    if (typeof v !== 'string' || v.length > 500) throw invalid(`value of "${key}" must be a string of at most 500 characters`)
  }
  return value as Record<string, string>
}
