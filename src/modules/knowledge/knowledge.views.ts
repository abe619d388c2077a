import { fromJson } from '../../kernel/db/database.js'
import type { KnowledgeBaseT, KnowledgeChunkT, KnowledgeDocumentT } from './knowledge.schemas.js'
import type { KnowledgeBasesTable, KnowledgeChunksTable, KnowledgeDocumentsTable } from './knowledge.tables.js'

// Pure row → resource mappers (the API's and the events' shapes).

export function baseView(r: KnowledgeBasesTable): KnowledgeBaseT {
  return {
    id: r.id,
    object: 'knowledge_base',
    name: r.name,
    description: r.description,
    language: r.language,
    chunking: { size: r.chunk_size, overlap: r.chunk_overlap },
    document_count: Number(r.document_count),
    chunk_count: Number(r.chunk_count),
    last_crawl: fromJson<Record<string, unknown> | null>(r.last_crawl, null),
    metadata: fromJson(r.metadata, {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

/** The document columns a view needs (lists skip the text and structure). */
export type DocumentViewRow = Omit<KnowledgeDocumentsTable, 'text' | 'structure'>

export function documentView(r: DocumentViewRow): KnowledgeDocumentT {
  return {
    id: r.id,
    object: 'knowledge_document',
    knowledge_base_id: r.knowledge_base_id,
    title: r.title,
    filename: r.filename,
    content_type: r.content_type,
    format: r.format,
    origin: r.origin,
    source_url: r.source_url,
    crawl_id: r.crawl_id,
    status: r.status,
    error: r.error,
    checksum: r.checksum,
    size_bytes: Number(r.size_bytes),
    page_count: r.page_count === null ? null : Number(r.page_count),
    chunk_count: Number(r.chunk_count),
    metadata: fromJson(r.metadata, {}),
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export function chunkView(r: KnowledgeChunksTable): KnowledgeChunkT {
  return {
    id: r.id,
    object: 'knowledge_chunk',
    position: Number(r.position),
    text: r.text,
    start: Number(r.start_offset),
    end: Number(r.end_offset),
    heading_path: fromJson<string[]>(r.heading_path, []),
    page: r.page === null ? null : Number(r.page),
  }
}

export const deletedView = <O extends 'knowledge_base' | 'knowledge_document'>(id: string, object: O) => ({ id, object, deleted: true as const })
