export type DocumentFormat = 'text' | 'markdown' | 'html' | 'pdf' | 'docx'

const BY_TYPE: Record<string, DocumentFormat> = {
  'text/plain': 'text',
  'text/markdown': 'markdown',
  'text/x-markdown': 'markdown',
  'text/html': 'html',
  'application/xhtml+xml': 'html',
  'application/pdf': 'pdf',
  'application/x-pdf': 'pdf',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document': 'docx',
}

const BY_EXTENSION: Record<string, DocumentFormat> = {
  txt: 'text',
  text: 'text',
  md: 'markdown',
  markdown: 'markdown',
  mdown: 'markdown',
  mkd: 'markdown',
  html: 'html',
  htm: 'html',
  xhtml: 'html',
  pdf: 'pdf',
  docx: 'docx',
}

// Types that say nothing about the content: browsers send a .md file as text/plain or octet-stream, so the
// file name decides for these.
const GENERIC = new Set(['', 'application/octet-stream', 'binary/octet-stream', 'text/plain'])

/** The format a document is parsed as, or null for one we do not read (the caller answers 415). */
export function formatOf(contentType: string | undefined, filename?: string): DocumentFormat | null {
  const type = (contentType ?? '').split(';')[0]!.trim().toLowerCase()
  if (!GENERIC.has(type)) return BY_TYPE[type] ?? null
  const ext = filename?.toLowerCase().match(/\.([a-z0-9]+)$/)?.[1]
  const byName = ext ? BY_EXTENSION[ext] : undefined
  if (byName) return byName
  return type === 'text/plain' ? 'text' : null
}
