import type { Mode } from '../../kernel/tenant.js'

export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx'
export type DocumentOrigin = 'api' | 'upload' | 'crawl'
export type DocumentStatus = 'queued' | 'processing' | 'ready' | 'failed'

export interface KnowledgeBasesTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string
  description: string | null
  /** Drives stemming of the search index (e.g. 'en'); changing it re-processes every document. */
  language: string
  /** Chunk size and overlap, in characters of the extracted text. */
  chunk_size: number
  chunk_overlap: number
  /** Maintained in the transactions that add or remove documents and chunks. */
  document_count: number
  chunk_count: number
  /** JSON summary of the latest crawl (written by the crawler through setLastCrawl), or null. */
  last_crawl: string | null
  metadata: string
  /** 1 while a background deletion runs: the base already answers 404 everywhere. */
  deleting: number
  created_at: string
  updated_at: string
}

export interface KnowledgeDocumentsTable {
  id: string
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  title: string
  /** The uploaded file's name (multipart uploads), else null. */
  filename: string | null
  content_type: string
  format: DocumentFormat
  origin: DocumentOrigin
  source_url: string | null
  crawl_id: string | null
  etag: string | null
  last_modified: string | null
  /** sha256 hex of the raw bytes. */
  checksum: string
  /**
   * The checksum while the document counts for duplicate detection (uploads and API documents that have
   * not failed), else null: a unique index over (base, dedupe_key) makes an identical upload find the
   * existing document even when two arrive at once. Crawled pages are keyed by their URL instead.
   */
  dedupe_key: string | null
  size_bytes: number
  status: DocumentStatus
  error: string | null
  /** The extracted text (chunk offsets point into it); null until processed. */
  text: string | null
  /** JSON {sections, pages} of the parse: lets a settings change re-chunk without the original bytes. */
  structure: string | null
  page_count: number | null
  chunk_count: number
  metadata: string
  created_at: string
  updated_at: string
}

/** Raw bytes waiting for (re)processing; deleted once the document is ready or failed. */
export interface KnowledgeDocumentSourcesTable {
  document_id: string
  workspace_id: string
  mode: Mode
  body: Buffer
}

export interface KnowledgeChunksTable {
  id: string
  workspace_id: string
  mode: Mode
  knowledge_base_id: string
  document_id: string
  position: number
  text: string
  /** Characters in the document's text: text.slice(start_offset, end_offset) === chunk text. */
  start_offset: number
  end_offset: number
  /** JSON array of the headings above the chunk. */
  heading_path: string
  page: number | null
  created_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    knowledge_bases: KnowledgeBasesTable
    knowledge_documents: KnowledgeDocumentsTable
    knowledge_document_sources: KnowledgeDocumentSourcesTable
    knowledge_chunks: KnowledgeChunksTable
  }
}
