import { iso } from '../../../kernel/clock.js'
import { fromJson, toJson } from '../../../kernel/db/database.js'
import { newId } from '../../../kernel/ids.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import { chunkDocument, DocumentParseError, parseDocument, type ParsedDocument } from '../ingest/index.js'
import { prepareIndex, removeIndex, writeIndex } from '../knowledge-index.repository.js'
import * as repo from '../knowledge.repository.js'
import type { KnowledgeChunksTable, KnowledgeDocumentsTable } from '../knowledge.tables.js'
import { documentView } from '../knowledge.views.js'

export interface ProcessDocumentPayload {
  workspace_id: string
  mode: Mode
  document_id: string
}

/** What a ready document hands on (the gaps it may answer): enqueued in the transaction that makes it ready. */
export type ReadyFollowUp = JobDefinition<{ workspace_id: string; mode: Mode; knowledge_base_id: string; document_id: string }>

const RETRY_SCHEDULE = [5, 30, 120, 600]
const MAX_ERROR = 500

/**
 * Parse → chunk → index one document. Parsing and chunking are deterministic, so a file they refuse ends
 * `failed` at once (no retries); only the index preparation (embeddings, a network call) and the database
 * are retried, and the last attempt fails the document rather than the job. The expensive part runs
 * outside any transaction; one transaction then replaces the chunks and index rows, so a re-run (a lease
 * taken over, a settings change, a re-crawl) writes the same document again instead of adding to it.
 */
export function processDocumentJob(k: Kernel, followUp: () => ReadyFollowUp | null): JobDefinition<ProcessDocumentPayload> {
  const fail = async (tenant: Tenant, doc: KnowledgeDocumentsTable, message: string): Promise<void> => {
    await k.transaction(null, async (tx) => {
      const current = await repo.findDocumentFull(tx, tenant, doc.id, { forUpdate: true })
      // Gone, or changed since this run read it (a newer upload of the page has its own job).
      if (!current || current.checksum !== doc.checksum) return
      const now = iso(k.clock.now())
      await removeIndex(tx, tenant, { documentId: doc.id })
      const removed = await repo.replaceChunks(tx, tenant, doc.id, [])
      const patch = { status: 'failed' as const, error: message.slice(0, MAX_ERROR), dedupe_key: null, chunk_count: 0, updated_at: now }
      await repo.updateDocument(tx, tenant, doc.id, patch)
      await repo.deleteSource(tx, tenant, doc.id)
      await repo.adjustBaseCounts(tx, tenant, doc.knowledge_base_id, { chunks: -removed }, now)
      await k.events.emit(tx, tenant, 'knowledge_document.failed', documentView({ ...current, ...patch }))
    })
  }

  return defineJob<ProcessDocumentPayload>({
    name: 'knowledge.process-document',
    retrySchedule: RETRY_SCHEDULE,
    async run(p, ctx) {
      const tenant: Tenant = { workspaceId: p.workspace_id, mode: p.mode }
      const doc = await repo.findDocumentFull(k.db, tenant, p.document_id)
      if (!doc) return
      const base = await repo.findBase(k.db, tenant, doc.knowledge_base_id)
      if (!base) return
      const source = await repo.findSource(k.db, tenant, doc.id)
      if (doc.status === 'queued') await repo.updateDocument(k.db, tenant, doc.id, { status: 'processing', updated_at: iso(k.clock.now()) })

      let parsed: ParsedDocument
      if (source) {
        try {
          parsed = await parseDocument(source, doc.format, doc.source_url ? { url: doc.source_url } : {})
        } catch (err) {
          return fail(tenant, doc, err instanceof DocumentParseError ? err.message : `The ${doc.format.toUpperCase()} file could not be read.`)
        }
      } else if (doc.text !== null && doc.structure !== null) {
        // Re-processing (new chunking or language): the stored text and structure, no original bytes needed.
        parsed = { title: null, text: doc.text, ...fromJson<Pick<ParsedDocument, 'sections' | 'pages'>>(doc.structure, { sections: [], pages: null }) }
      } else {
        if (doc.status !== 'ready') await fail(tenant, doc, 'The document has no content left to process; upload it again.')
        return
      }
      if (parsed.text.trim() === '') {
        return fail(tenant, doc, doc.format === 'pdf' ? 'No text could be extracted from the PDF (a scanned PDF needs OCR first).' : 'The document contains no text.')
      }

      let chunks: ReturnType<typeof chunkDocument>
      try {
        chunks = chunkDocument(parsed, { size: base.chunk_size, overlap: base.chunk_overlap })
      } catch {
        return fail(tenant, doc, 'The document could not be split into passages.')
      }
      const title = newTitle(doc, parsed.title)
      const now = iso(k.clock.now())
      const rows: KnowledgeChunksTable[] = chunks.map((c) => ({
        id: newId('chk'),
        workspace_id: tenant.workspaceId,
        mode: tenant.mode,
        knowledge_base_id: base.id,
        document_id: doc.id,
        position: c.position,
        text: c.text,
        start_offset: c.start,
        end_offset: c.end,
        heading_path: toJson(c.headingPath),
        page: c.page,
        created_at: now,
      }))

      let prepared: Awaited<ReturnType<typeof prepareIndex>>
      try {
        prepared = await prepareIndex(k, base, chunks.map((c, i) => ({ id: rows[i].id, text: c.text, headingPath: c.headingPath, title })))
      } catch (err) {
        // Worth a retry (provider down); on the last attempt the document fails with the reason.
        if (ctx.attempt <= RETRY_SCHEDULE.length) throw err
        return fail(tenant, doc, `Indexing failed after ${ctx.attempt} attempts: ${err instanceof Error ? err.message : String(err)}`)
      }

      const follow = followUp()
      await k.transaction(null, async (tx) => {
        const current = await repo.findDocumentFull(tx, tenant, doc.id, { forUpdate: true })
        const currentBase = await repo.findBase(tx, tenant, base.id, { forUpdate: true })
        // Deleted, re-uploaded (a newer crawl of the page) or re-configured meanwhile: the newer job does it.
        if (!current || !currentBase || current.checksum !== doc.checksum) return
        if (currentBase.chunk_size !== base.chunk_size || currentBase.chunk_overlap !== base.chunk_overlap || currentBase.language !== base.language) return
        const removed = await repo.replaceChunks(tx, tenant, doc.id, rows)
        await writeIndex(tx, tenant, base.id, doc.id, prepared)
        const patch: Partial<KnowledgeDocumentsTable> = {
          title,
          status: 'ready',
          error: null,
          text: parsed.text,
          structure: toJson({ sections: parsed.sections, pages: parsed.pages }),
          page_count: parsed.pages ? parsed.pages.length : null,
          chunk_count: rows.length,
          updated_at: iso(k.clock.now()),
        }
        await repo.updateDocument(tx, tenant, doc.id, patch)
        await repo.deleteSource(tx, tenant, doc.id)
        await repo.adjustBaseCounts(tx, tenant, base.id, { chunks: rows.length - removed }, patch.updated_at!)
        await k.events.emit(tx, tenant, 'knowledge_document.ready', documentView({ ...current, ...patch }))
        if (follow) await enqueue(tx, k.clock, follow, { workspace_id: tenant.workspaceId, mode: tenant.mode, knowledge_base_id: base.id, document_id: doc.id })
      })
    },
  })
}

/** A title the uploader did not choose (the file name, the page URL) gives way to the document's own. */
function newTitle(doc: KnowledgeDocumentsTable, parsed: string | null): string {
  const own = parsed?.trim()
  if (!own) return doc.title
  const placeholder = doc.title === doc.filename || (doc.source_url !== null && doc.title === doc.source_url)
  return placeholder ? own.slice(0, 500) : doc.title
}
