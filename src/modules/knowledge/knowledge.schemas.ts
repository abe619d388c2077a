import { Type, type Static } from 'typebox'
import { FileField } from '../../kernel/http/multipart.js'
import { Page, PageQuery } from '../../kernel/http/pagination.js'
import { Nullable } from '../../kernel/http/schemas.js'

const DateTime = Type.String({ format: 'date-time' })

export const CHUNK_SIZE = { min: 200, max: 8000, default: 1000 }
export const CHUNK_OVERLAP_DEFAULT = 150

export const Metadata = Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 500 }), {
  maxProperties: 50,
  description: 'Up to 50 string key/value pairs; search filters match them exactly.',
})

const Language = Type.String({
  pattern: '^[a-z]{2}$',
  description: 'ISO 639-1 code of the content (default `en`): drives stemming in the search index. Changing it re-processes every document.',
})

const Chunking = Type.Object(
  {
    size: Type.Integer({ minimum: CHUNK_SIZE.min, maximum: CHUNK_SIZE.max, description: `Target chunk length in characters (default ${CHUNK_SIZE.default}).` }),
    overlap: Type.Integer({ minimum: 0, maximum: CHUNK_SIZE.max / 2, description: `Characters repeated from the previous chunk (default ${CHUNK_OVERLAP_DEFAULT}); at most half the size.` }),
  },
  { additionalProperties: false, title: 'KnowledgeChunking' },
)

export const KnowledgeBase = Type.Object(
  {
    id: Type.String({ examples: ['kb_01JD0000000000000000000000'] }),
    object: Type.Literal('knowledge_base'),
    name: Type.String(),
    description: Nullable(Type.String()),
    language: Type.String(),
    chunking: Chunking,
    document_count: Type.Integer({ description: 'Documents in the base, in any status.' }),
    chunk_count: Type.Integer({ description: 'Searchable chunks of its ready documents.' }),
    last_crawl: Nullable(Type.Object({}, { additionalProperties: true, description: 'Summary of the latest crawl of the base (id, status, counts, times).' })),
    metadata: Metadata,
    created_at: DateTime,
    updated_at: DateTime,
  },
  { $id: 'KnowledgeBase' },
)
export type KnowledgeBaseT = Static<typeof KnowledgeBase>

export const CreateKnowledgeBaseBody = Type.Object(
  {
    name: Type.String({ minLength: 1, maxLength: 200 }),
    description: Type.Optional(Type.String({ maxLength: 2000 })),
    language: Type.Optional(Language),
    chunking: Type.Optional(Chunking),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'CreateKnowledgeBaseBody' },
)
export type CreateKnowledgeBaseBodyT = Static<typeof CreateKnowledgeBaseBody>

export const UpdateKnowledgeBaseBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    description: Type.Optional(Nullable(Type.String({ maxLength: 2000 }))),
    language: Type.Optional(Language),
    chunking: Type.Optional(Chunking),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'UpdateKnowledgeBaseBody' },
)
export type UpdateKnowledgeBaseBodyT = Static<typeof UpdateKnowledgeBaseBody>

export const KnowledgeBaseList = Page(KnowledgeBase, 'KnowledgeBase')
export const ListKnowledgeBasesQuery = Type.Object({ ...PageQuery }, { additionalProperties: false })

export const DocumentStatus = Type.Union([Type.Literal('queued'), Type.Literal('processing'), Type.Literal('ready'), Type.Literal('failed')])
export const DocumentFormatSchema = Type.Union([Type.Literal('text'), Type.Literal('markdown'), Type.Literal('html'), Type.Literal('pdf'), Type.Literal('docx')])
export const DocumentOriginSchema = Type.Union([Type.Literal('api'), Type.Literal('upload'), Type.Literal('crawl')])

export const KnowledgeChunk = Type.Object(
  {
    id: Type.String({ examples: ['chk_01JD0000000000000000000000'] }),
    object: Type.Literal('knowledge_chunk'),
    position: Type.Integer(),
    text: Type.String(),
    start: Type.Integer({ description: 'Offset of the first character in the document text.' }),
    end: Type.Integer({ description: 'Offset after the last character: text.slice(start, end) is the chunk.' }),
    heading_path: Type.Array(Type.String()),
    page: Nullable(Type.Integer({ description: 'PDF page (1-based), else null.' })),
  },
  { $id: 'KnowledgeChunk' },
)
export type KnowledgeChunkT = Static<typeof KnowledgeChunk>

const documentFields = {
  id: Type.String({ examples: ['doc_01JD0000000000000000000000'] }),
  object: Type.Literal('knowledge_document'),
  knowledge_base_id: Type.String(),
  title: Type.String(),
  filename: Nullable(Type.String()),
  content_type: Type.String(),
  format: DocumentFormatSchema,
  origin: DocumentOriginSchema,
  source_url: Nullable(Type.String()),
  crawl_id: Nullable(Type.String({ description: 'The crawl that created or last updated it (origin crawl).' })),
  status: DocumentStatus,
  error: Nullable(Type.String({ description: 'Why processing failed (status failed), readable by an end user.' })),
  checksum: Type.String({ description: 'sha256 (hex) of the uploaded bytes: an identical upload to the same base returns this document.' }),
  size_bytes: Type.Integer(),
  page_count: Nullable(Type.Integer()),
  chunk_count: Type.Integer(),
  metadata: Metadata,
  created_at: DateTime,
  updated_at: DateTime,
}

export const KnowledgeDocument = Type.Object(documentFields, { $id: 'KnowledgeDocument' })
export type KnowledgeDocumentT = Static<typeof KnowledgeDocument>

export const KnowledgeDocumentDetail = Type.Object(
  {
    ...documentFields,
    text: Type.Optional(Nullable(Type.String({ description: 'The extracted text (include=text); chunk offsets point into it.' }))),
    chunks: Type.Optional(Type.Array(KnowledgeChunk, { description: 'Its chunks in order (include=chunks).' })),
  },
  { $id: 'KnowledgeDocumentDetail' },
)
export type KnowledgeDocumentDetailT = Static<typeof KnowledgeDocumentDetail>

export const KnowledgeDocumentList = Page(KnowledgeDocument, 'KnowledgeDocument')
export const ListKnowledgeDocumentsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(DocumentStatus),
  },
  { additionalProperties: false },
)

export const GetKnowledgeDocumentQuery = Type.Object(
  {
    include: Type.Optional(Type.String({ pattern: '^(chunks|text)(,(chunks|text))?$', description: 'Comma-separated: `chunks` (with offsets, heading path, page) and/or `text`.' })),
  },
  { additionalProperties: false },
)

export const JSON_CONTENT_TYPES = ['text/plain', 'text/markdown', 'text/html'] as const

export const UploadKnowledgeDocumentBody = Type.Object(
  {
    title: Type.String({ minLength: 1, maxLength: 500 }),
    text: Type.String({ minLength: 1, description: 'The content, up to KNOWLEDGE_MAX_UPLOAD_BYTES (UTF-8).' }),
    content_type: Type.Optional(
      Type.Union(
        JSON_CONTENT_TYPES.map((t) => Type.Literal(t)),
        { description: 'How to read `text` (default text/plain): Markdown and HTML keep their headings in the chunks.' },
      ),
    ),
    source_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
    metadata: Type.Optional(Metadata),
  },
  { additionalProperties: false, title: 'UploadKnowledgeDocumentBody' },
)
export type UploadKnowledgeDocumentBodyT = Static<typeof UploadKnowledgeDocumentBody>

export const UploadKnowledgeDocumentForm = Type.Object(
  {
    file: FileField('The document: plain text, Markdown, HTML, PDF or DOCX, up to KNOWLEDGE_MAX_UPLOAD_BYTES.'),
    title: Type.Optional(Type.String({ minLength: 1, maxLength: 500, description: "Default: the document's own title, else the file name." })),
    source_url: Type.Optional(Type.String({ format: 'uri', maxLength: 2048 })),
    metadata: Type.Optional(Type.String({ maxLength: 32768, description: 'JSON object of string key/value pairs (as `metadata` of the JSON form).' })),
  },
  { additionalProperties: false, title: 'UploadKnowledgeDocumentForm' },
)
export type UploadKnowledgeDocumentFormT = Static<typeof UploadKnowledgeDocumentForm>

export const IdParams = Type.Object({ id: Type.String({ minLength: 1, maxLength: 100 }) })

export const DeletedKnowledgeBase = Type.Object({ id: Type.String(), object: Type.Literal('knowledge_base'), deleted: Type.Literal(true) }, { $id: 'DeletedKnowledgeBase' })
export const DeletedKnowledgeDocument = Type.Object({ id: Type.String(), object: Type.Literal('knowledge_document'), deleted: Type.Literal(true) }, { $id: 'DeletedKnowledgeDocument' })
