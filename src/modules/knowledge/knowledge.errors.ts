import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The knowledge module's error codes (the kernel keeps only generic ones). */
export const KNOWLEDGE_ERRORS = defineErrors('knowledge', {
  // An uploaded file or JSON text is larger than KNOWLEDGE_MAX_UPLOAD_BYTES.
  document_too_large: { status: 413, title: 'Document too large' },
  // An upload whose content type / file name is not text, Markdown, HTML, PDF or DOCX.
  document_type_unsupported: { status: 415, title: 'Unsupported document type' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof KNOWLEDGE_ERRORS, ErrorSpec> {}
}
