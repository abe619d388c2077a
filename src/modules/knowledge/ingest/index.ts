// Parsing and chunking of knowledge documents: pure functions, no database. See README.md beside this file.
export { type DocumentFormat, formatOf } from './document-format.js'
export { DocumentParseError } from './parse-error.js'
export type { ParsedDocument, Section, PageRange } from './document-builder.js'
export { parseDocument } from './parse-document.js'
export { type Chunk, chunkDocument } from './chunk-document.js'
export { type IngestLimits, DocumentLimitError } from './ingest-limits.js'
