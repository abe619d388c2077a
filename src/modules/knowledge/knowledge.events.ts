import { Type } from 'typebox'
import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { KnowledgeBase, KnowledgeDocument, type KnowledgeBaseT, type KnowledgeDocumentT } from './knowledge.schemas.js'
import { CRAWL_EXAMPLE, KnowledgeCrawl } from './crawl/crawl.schemas.js'
import { KNOWLEDGE_GAP_EXAMPLE, KnowledgeGap } from './knowledge.search.schemas.js'

const BASE_EXAMPLE: KnowledgeBaseT = {
  id: 'kb_01JD0000000000000000000000',
  object: 'knowledge_base',
  name: 'Help center',
  description: 'Public articles of help.example.com',
  language: 'en',
  chunking: { size: 1000, overlap: 150 },
  document_count: 42,
  chunk_count: 318,
  last_crawl: null,
  metadata: {},
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:00.000Z',
}

const DOCUMENT_EXAMPLE: KnowledgeDocumentT = {
  id: 'doc_01JD0000000000000000000000',
  object: 'knowledge_document',
  knowledge_base_id: 'kb_01JD0000000000000000000000',
  title: 'Refund policy',
  filename: 'refund-policy.pdf',
  content_type: 'application/pdf',
  format: 'pdf',
  origin: 'upload',
  source_url: null,
  crawl_id: null,
  status: 'ready',
  error: null,
  checksum: 'b94d27b9934d3e08a52e52d7da7dabfac484efe37a5380ee9088f7ace2efcde9',
  size_bytes: 48213,
  page_count: 3,
  chunk_count: 7,
  metadata: { team: 'billing' },
  created_at: '2026-11-25T10:00:00.000Z',
  updated_at: '2026-11-25T10:00:05.000Z',
}

const DELETED = <O extends 'knowledge_base' | 'knowledge_document'>(object: O) => Type.Object({ id: Type.String(), object: Type.Literal(object), deleted: Type.Literal(true) })

/** Every event type of the knowledge module, declared once (bases, documents, crawls, gaps). */
export const KNOWLEDGE_EVENTS = defineEvents(
  'knowledge',
  { scope: 'read' },
  {
    'knowledge_base.created': eventType({ description: 'A knowledge base was created.', schema: KnowledgeBase, example: BASE_EXAMPLE }),
    'knowledge_base.updated': eventType({
      description: 'A knowledge base was renamed or its settings changed (a chunking or language change re-processes its documents).',
      schema: KnowledgeBase,
      example: BASE_EXAMPLE,
    }),
    'knowledge_base.deleted': eventType({
      description: 'A knowledge base was deleted; its documents, chunks and index entries are removed (in the background for large bases).',
      schema: DELETED('knowledge_base'),
      example: { id: BASE_EXAMPLE.id, object: 'knowledge_base', deleted: true },
    }),
    'knowledge_document.ready': eventType({
      description: 'A document was parsed, chunked and indexed (also after a re-crawl or a settings change): it is searchable.',
      schema: KnowledgeDocument,
      example: DOCUMENT_EXAMPLE,
    }),
    'knowledge_document.failed': eventType({
      description: 'A document could not be processed (corrupt or empty file, no text); `error` says why.',
      schema: KnowledgeDocument,
      example: { ...DOCUMENT_EXAMPLE, status: 'failed', error: 'The PDF file is damaged and cannot be read.', chunk_count: 0, page_count: null },
    }),
    'knowledge_document.deleted': eventType({
      description: 'A document was deleted (through the API, or by a re-crawl that no longer found its page).',
      schema: DELETED('knowledge_document'),
      example: { id: DOCUMENT_EXAMPLE.id, object: 'knowledge_document', deleted: true },
    }),
    'knowledge_crawl.completed': eventType({
      description: 'A crawl finished (completed or failed): its counts say what was indexed, unchanged, skipped, failed and removed.',
      schema: KnowledgeCrawl,
      example: CRAWL_EXAMPLE,
    }),
    'knowledge_gap.opened': eventType({
      description: 'A question the knowledge could not answer (best score below the gap threshold) opened a new gap.',
      schema: KnowledgeGap,
      example: KNOWLEDGE_GAP_EXAMPLE,
    }),
    'knowledge_gap.resolved': eventType({
      description: 'A newly ready document answers an open gap above the threshold: the gap resolved by itself.',
      schema: KnowledgeGap,
      example: { ...KNOWLEDGE_GAP_EXAMPLE, status: 'resolved', resolved_at: '2026-11-27T09:00:00.000Z', resolved_by_document_id: 'doc_01JD0000000000000000000000' },
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof KNOWLEDGE_EVENTS> {}
}
