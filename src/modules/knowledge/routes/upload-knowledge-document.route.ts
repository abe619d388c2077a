import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, KnowledgeDocument, UploadKnowledgeDocumentBody, UploadKnowledgeDocumentForm, type UploadKnowledgeDocumentFormT } from '../knowledge.schemas.js'

export const uploadKnowledgeDocument = defineRoute({
  operationId: 'uploadKnowledgeDocument',
  method: 'POST',
  url: '/knowledge/bases/{id}/documents',
  module: 'knowledge',
  scope: 'write',
  summary: 'Add a document to a knowledge base',
  description:
    'As JSON (`title`, `text`, `content_type` text/plain, text/markdown or text/html) or as multipart/form-data ' +
    '(`file`: text, Markdown, HTML, PDF or DOCX; optional `title`, `source_url`, `metadata` as JSON text). ' +
    'Answers 202 with the document `queued`; it is parsed, chunked and indexed in the background (`ready`, or ' +
    '`failed` with a readable `error`). The same bytes already in the base answer 200 with that document and ' +
    'queue nothing. Beyond KNOWLEDGE_MAX_UPLOAD_BYTES (default 20 MiB) 413; an unsupported file type 415.',
  schema: { params: IdParams, body: UploadKnowledgeDocumentBody, response: { 200: KnowledgeDocument, 202: KnowledgeDocument } },
  multipart: { schema: UploadKnowledgeDocumentForm, maxFileBytes: (config) => config.knowledge.maxUploadBytes },
  responseDescription: { 200: 'The same bytes are already in the base: that document; nothing was queued', 202: 'The document, queued for processing' },
  errors: ['resource_not_found', 'document_type_unsupported'],
  // 202 or 200 (duplicate) comes with the document from the service's transaction (withStatus).
  handler: ({ params, body, principal, services, request }) => {
    const documents = services.knowledge.documents
    return request.isMultipart() ? documents.upload(principal, params.id, body as unknown as UploadKnowledgeDocumentFormT) : documents.create(principal, params.id, body)
  },
})
