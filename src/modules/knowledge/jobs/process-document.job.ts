import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { fromJson, toJson, type Tx } from '../../../kernel/db/database.js'
import { nextTurn } from '../../../kernel/db/turns.js'
import { newId } from '../../../kernel/ids.js'
import { defineJob, enqueue, extendLease, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Mode, Tenant } from '../../../kernel/tenant.js'
import type { ParsedDocument } from '../ingest/index.js'
import { ingestPool } from '../ingest/ingest-pool.js'
import { termList, type IngestOutcome } from '../ingest/ingest-task.js'
import { appendIndex, prepareIndex, removeIndex, writeIndex, type PreparedIndex } from '../knowledge-index.repository.js'
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
 * What one transaction writes when a large document is written slice by slice (see run): at most this many
 * chunks and characters of text (the statistics' upsert grows with the distinct terms of the text, and on
 * SQLite every statement runs on the event loop and holds the one connection). PostgreSQL has a pool, so
 * only the event loop's share of each slice counts there.
 */
const SLICE = { sqlite: { chunks: 100, chars: 50_000 }, postgres: { chunks: 500, chars: 250_000 } }

/**
 * Parse → chunk → index one document. Parsing, chunking and term analysis run in a worker thread
 * (ingest/ingest-pool.ts) under the limits of config.knowledge; they are deterministic, so a file they
 * refuse ends `failed` at once (no retries); only the index preparation (embeddings, a network call) and
 * the database are retried, and the last attempt fails the document rather than the job. If every attempt
 * kills its process, the runner dead-letters the job and onExhausted fails the document. The expensive
 * part runs outside any transaction; then one transaction (a large new document: one per slice of SLICE
 * chunks, then one that makes it ready) replaces the chunks and index rows, so a re-run (a lease taken
 * over, a settings change, a re-crawl) writes the same document again instead of adding to it.
 */
export function processDocumentJob(k: Kernel, followUp: () => ReadyFollowUp | null): JobDefinition<ProcessDocumentPayload> {
  const fail = async (tenant: Tenant, doc: KnowledgeDocumentsTable, message: string): Promise<void> => {
    await k.transaction(sideOwner(tenant), async (tx) => {
      // Lock order: base, then document (as a base's deletion takes them).
      await repo.findBase(tx, tenant, doc.knowledge_base_id, { forUpdate: true })
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

  const { maxInflatedBytes, maxTextChars, maxChunks, parseThreads, parseMemoryMb, parseTimeoutMs } = k.config.knowledge
  const limits = { maxInflatedBytes, maxTextChars, maxChunks }
  const pool = () => ingestPool({ threads: parseThreads, memoryMb: parseMemoryMb, timeoutMs: parseTimeoutMs })

  return defineJob<ProcessDocumentPayload>({
    name: 'knowledge.process-document',
    retrySchedule: RETRY_SCHEDULE,
    // The job will not run again (its process died on every attempt, or the last attempt threw): the
    // document says so instead of staying `processing` for ever.
    async onExhausted(p, info) {
      const tenant: Tenant = inheritAudit(info, { workspaceId: p.workspace_id, mode: p.mode })
      const doc = await repo.findDocumentFull(k.db, tenant, p.document_id)
      if (!doc || doc.status === 'ready' || doc.status === 'failed') return
      const why = info.leaseExpired
        ? `Processing stopped after ${info.attempts} attempts: the process running it died each time (the file may be too large or malformed to read).`
        : `Processing failed after ${info.attempts} attempts: ${info.error}`
      await fail(tenant, doc, why)
    },
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      const doc = await repo.findDocumentFull(k.db, tenant, p.document_id)
      if (!doc) return
      const base = await repo.findBase(k.db, tenant, doc.knowledge_base_id)
      if (!base) return
      const source = await repo.findSource(k.db, tenant, doc.id)
      if (doc.status === 'queued') await repo.updateDocument(k.db, tenant, doc.id, { status: 'processing', updated_at: iso(k.clock.now()) })

      // Parse, chunk and analyse in a worker thread (ingest-pool.ts): a large or hostile file costs the
      // event loop nothing, and one that exhausts the thread's memory fails alone.
      const stored = !source && doc.text !== null && doc.structure !== null
      if (!source && !stored) {
        // Re-processing needs the stored text and structure, or the original bytes.
        if (doc.status !== 'ready') await fail(tenant, doc, 'The document has no content left to process; upload it again.')
        return
      }
      // The lease is kept while the thread reads: a large file can take longer than JOB_LEASE_SECONDS.
      const leaseSeconds = k.config.jobLeaseSeconds
      let beat: Promise<unknown> = Promise.resolve()
      const keepLease = ctx.lease
        ? setInterval(
            () => {
              beat = beat.then(() => extendLease(k.db, k.clock, ctx.lease!, leaseSeconds)).catch(() => {})
            },
            (leaseSeconds * 1000) / 3,
          )
        : null
      let outcome: IngestOutcome
      try {
        outcome = await pool().run({
          format: doc.format,
          source: source ?? null,
          stored: stored ? { text: doc.text!, ...fromJson<Pick<ParsedDocument, 'sections' | 'pages'>>(doc.structure, { sections: [], pages: null }) } : null,
          ...(doc.source_url ? { url: doc.source_url } : {}),
          limits,
          chunking: { size: base.chunk_size, overlap: base.chunk_overlap },
          language: base.language,
          title: { current: doc.title, placeholder: doc.title === doc.filename || (doc.source_url !== null && doc.title === doc.source_url) },
        })
      } finally {
        if (keepLease) clearInterval(keepLease)
        await beat
      }
      // Deterministic: the same file fails the same way again, so no retry.
      if (!outcome.ok) return fail(tenant, doc, outcome.message)
      const { parsed, title } = outcome
      if (parsed.text.trim() === '') {
        return fail(tenant, doc, doc.format === 'pdf' ? 'No text could be extracted from the PDF (a scanned PDF needs OCR first).' : 'The document contains no text.')
      }
      // Rows are built per slice (below), not all at once: 10,000 of them at a time is a pause of the event loop.
      const chunks = outcome.chunks
      const rowsOf = (from: number, to: number): KnowledgeChunksTable[] => {
        const now = iso(k.clock.now())
        return chunks.slice(from, to).map((c) => ({
          id: newId('chk'),
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          knowledge_base_id: base.id,
          document_id: doc.id,
          position: c.position,
          text: parsed.text.slice(c.start, c.end),
          start_offset: c.start,
          end_offset: c.end,
          heading_path: toJson(c.headingPath),
          page: c.page,
          created_at: now,
        }))
      }
      const indexInput = (from: number, rows: KnowledgeChunksTable[]) =>
        rows.map((row, i) => {
          const c = chunks[from + i]!
          return { id: row.id, text: row.text, headingPath: c.headingPath, title, analysed: { head: termList(c.head), body: termList(c.body), terms: c.terms } }
        })
      // Index rows (embeddings: a network call) outside any transaction. Worth a retry (provider down); on
      // the last attempt the document fails with the reason (null: it did).
      const prepare = async (from: number, rows: KnowledgeChunksTable[]): Promise<PreparedIndex | null> => {
        try {
          return await prepareIndex(k, base, indexInput(from, rows))
        } catch (err) {
          if (ctx.attempt <= RETRY_SCHEDULE.length) throw err
          await fail(tenant, doc, `Indexing failed after ${ctx.attempt} attempts: ${err instanceof Error ? err.message : String(err)}`)
          return null
        }
      }
      // Deleted, re-uploaded (a newer crawl of the page) or re-configured meanwhile, or this run's lease
      // taken over: the newer job does it. Locks the document and the base for the transaction.
      const stillCurrent = async (tx: Tx, slices: boolean): Promise<KnowledgeDocumentsTable | null> => {
        // The base first: every writer locks base, then document (a base's deletion does), or two deadlock.
        const currentBase = await repo.findBase(tx, tenant, base.id, { forUpdate: true })
        const current = await repo.findDocumentFull(tx, tenant, doc.id, { forUpdate: true })
        if (!current || !currentBase || current.checksum !== doc.checksum) return null
        if (currentBase.chunk_size !== base.chunk_size || currentBase.chunk_overlap !== base.chunk_overlap || currentBase.language !== base.language) return null
        if (slices && ctx.lease && !(await extendLease(tx, k.clock, ctx.lease, leaseSeconds))) return null
        return current
      }
      const follow = followUp()
      const ready = async (tx: Tx, current: KnowledgeDocumentsTable): Promise<void> => {
        const patch: Partial<KnowledgeDocumentsTable> = {
          title,
          status: 'ready',
          error: null,
          text: parsed.text,
          structure: toJson({ sections: parsed.sections, pages: parsed.pages }),
          page_count: parsed.pages ? parsed.pages.length : null,
          chunk_count: chunks.length,
          updated_at: iso(k.clock.now()),
        }
        await repo.updateDocument(tx, tenant, doc.id, patch)
        await repo.deleteSource(tx, tenant, doc.id)
        await k.events.emit(tx, tenant, 'knowledge_document.ready', documentView({ ...current, ...patch }))
        if (follow) await enqueue(tx, k.clock, follow, { workspace_id: tenant.workspaceId, mode: tenant.mode, knowledge_base_id: base.id, document_id: doc.id })
      }

      // A large document not yet ready is written a slice at a time, each slice in its own short
      // transaction: SQLite has one connection, and one transaction writing 10,000 chunks would hold every
      // other request for seconds (the per-slice work on the event loop stays small too). Its chunks become
      // searchable slice by slice while it is `processing`. A document already ready (re-processing) is
      // replaced in one transaction, so a search never sees it half old, half new.
      const slice = SLICE[k.database.engine]
      const sliceEnd = (from: number): number => {
        let to = from + 1
        let chars = chunks[from]!.end - chunks[from]!.start
        while (to < chunks.length && to - from < slice.chunks) {
          const length = chunks[to]!.end - chunks[to]!.start
          if (chars + length > slice.chars) break
          chars += length
          to++
        }
        return to
      }
      if (doc.status !== 'ready' && sliceEnd(0) < chunks.length) {
        for (let from = 0, to = 0; from < chunks.length; from = to) {
          to = sliceEnd(from)
          const part = rowsOf(from, to)
          const prepared = await prepare(from, part)
          if (!prepared) return
          const written = await k.transaction(sideOwner(tenant), async (tx) => {
            if (!(await stillCurrent(tx, true))) return false
            let removed = 0
            if (from === 0) {
              // The first slice clears what an earlier, interrupted run left.
              await removeIndex(tx, tenant, { documentId: doc.id })
              removed = await repo.replaceChunks(tx, tenant, doc.id, part)
            } else await repo.insertChunks(tx, part)
            await appendIndex(tx, tenant, base.id, doc.id, prepared)
            await repo.adjustBaseCounts(tx, tenant, base.id, { chunks: part.length - removed }, iso(k.clock.now()))
            return true
          })
          if (!written) return
          // Let the requests waiting for the connection (SQLite has one) have it before the next slice.
          await nextTurn()
        }
        await k.transaction(sideOwner(tenant), async (tx) => {
          const current = await stillCurrent(tx, true)
          if (current) await ready(tx, current)
        })
        return
      }

      const rows = rowsOf(0, chunks.length)
      const prepared = await prepare(0, rows)
      if (!prepared) return
      await k.transaction(sideOwner(tenant), async (tx) => {
        const current = await stillCurrent(tx, false)
        if (!current) return
        const removed = await repo.replaceChunks(tx, tenant, doc.id, rows)
        await writeIndex(tx, tenant, base.id, doc.id, prepared)
        await repo.adjustBaseCounts(tx, tenant, base.id, { chunks: rows.length - removed }, iso(k.clock.now()))
        await ready(tx, current)
      })
    },
  })
}
