import { analyseChunk } from '../knowledge-index.analysis.js'
import { analyserFor } from '../knowledge.text.js'
import { chunkDocument } from './chunk-document.js'
import type { PageRange, ParsedDocument, Section } from './document-builder.js'
import type { DocumentFormat } from './document-format.js'
import { DocumentLimitError, textTooLong, type IngestLimits } from './ingest-limits.js'
import { DocumentParseError } from './parse-error.js'
import { parseDocument } from './parse-document.js'

/** One document to read: its bytes (or, re-processing, its stored text), and how to chunk and analyse it. */
export interface IngestTask {
  format: DocumentFormat
  source: Uint8Array | null
  stored: { text: string; sections: Section[]; pages: PageRange[] | null } | null
  url?: string
  limits: IngestLimits
  chunking: { size: number; overlap: number }
  language: string
  /** The document's title now, and whether it is a placeholder (file name, page URL) its own title replaces. */
  title: { current: string; placeholder: boolean }
}

/** A chunk as the index needs it; its text is `text.slice(start, end)` of the document (not sent twice). */
export interface IngestedChunk {
  position: number
  start: number
  end: number
  headingPath: string[]
  page: number | null
  /** Terms, space-separated (terms hold no spaces): a few long strings clone far faster than many short ones. */
  head: string
  body: string
  terms: string
}

export type IngestOutcome =
  | { ok: true; parsed: ParsedDocument; title: string; chunks: IngestedChunk[] }
  /** `kind`: parse (the file cannot be read: no retry), limit (over a KNOWLEDGE_MAX_* limit). */
  | { ok: false; kind: 'parse' | 'limit'; message: string }

/**
 * Parse → chunk → analyse one document: everything CPU-bound about it, pure (no database), run in the
 * ingest worker thread (ingest-pool.ts) so the API's event loop never waits for it. Throws only on a bug;
 * a file that cannot be read or crosses a limit is an outcome.
 */
export async function runIngestTask(t: IngestTask): Promise<IngestOutcome> {
  let parsed: ParsedDocument
  try {
    if (t.source) parsed = await parseDocument(t.source, t.format, { ...(t.url ? { url: t.url } : {}), limits: t.limits })
    else if (t.stored) {
      if (t.stored.text.length > t.limits.maxTextChars) throw textTooLong(t.stored.text.length, t.limits.maxTextChars)
      parsed = { title: null, ...t.stored }
    } else return { ok: false, kind: 'parse', message: 'The document has no content left to process; upload it again.' }
    const own = parsed.title?.trim()
    const title = own && t.title.placeholder ? own.slice(0, 500) : t.title.current
    if (parsed.text.trim() === '') return { ok: true, parsed, title, chunks: [] }
    const chunks = chunkDocument(parsed, { ...t.chunking, maxChunks: t.limits.maxChunks })
    const a = analyserFor(t.language)
    const out = chunks.map((c): IngestedChunk => {
      const { head, body, terms } = analyseChunk(a, title, c.headingPath, c.text)
      return { position: c.position, start: c.start, end: c.end, headingPath: c.headingPath, page: c.page, head: head.join(' '), body: body.join(' '), terms }
    })
    return { ok: true, parsed, title, chunks: out }
  } catch (err) {
    if (err instanceof DocumentLimitError) return { ok: false, kind: 'limit', message: err.message }
    if (err instanceof DocumentParseError) return { ok: false, kind: 'parse', message: err.message }
    throw err
  }
}

/** The terms of a chunk back as lists (an empty string is no terms). */
export const termList = (s: string): string[] => (s === '' ? [] : s.split(' '))
