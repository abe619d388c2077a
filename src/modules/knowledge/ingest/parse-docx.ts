import type JSZip from 'jszip'
import { DocumentBuilder, type ParsedDocument } from './document-builder.js'
import { decodeEntities } from './html-entities.js'
import { htmlToDocument } from './html-to-document.js'
import { checkZipInflatedSize, DocumentLimitError } from './ingest-limits.js'
import { DocumentParseError } from './parse-error.js'

/**
 * A Word document (.docx) → text through mammoth, which maps Word's heading styles to h1–h6 and drops
 * the layout; the HTML it writes is read like a page. The title is the document's own (File › Properties,
 * docProps/core.xml), else the first level-1 heading.
 */
export async function parseDocx(input: Uint8Array, maxInflatedBytes = Infinity): Promise<ParsedDocument> {
  const notZip = (cause?: unknown) => new DocumentParseError('The file is not a valid Word document (.docx): it is not a readable ZIP archive.', { cause })
  // Before JSZip or mammoth unpack anything: they inflate a whole entry into one string, whatever its size.
  try {
    checkZipInflatedSize(input, maxInflatedBytes, 'The Word document')
  } catch (err) {
    throw err instanceof DocumentLimitError ? err : notZip(err)
  }
  const [{ default: JSZipClass }, { default: mammoth }, { parseHTML }] = await Promise.all([import('jszip'), import('mammoth'), import('linkedom')])
  const buffer = Buffer.from(input.buffer, input.byteOffset, input.byteLength)
  let zip: JSZip
  try {
    zip = await JSZipClass.loadAsync(buffer)
  } catch (err) {
    throw notZip(err)
  }
  if (!zip.file('word/document.xml')) {
    throw new DocumentParseError('The file is not a Word document (.docx): it has no document body. Older .doc files must be saved as .docx first.')
  }
  let html: string
  try {
    // Images are not text: an empty src spares mammoth encoding each one as a base64 data URI.
    const convertImage = mammoth.images.imgElement(async () => ({ src: '' }))
    html = (await mammoth.convertToHtml({ buffer }, { includeDefaultStyleMap: true, ignoreEmptyParagraphs: true, convertImage })).value
  } catch (err) {
    throw new DocumentParseError(`The Word document could not be read: ${err instanceof Error ? err.message.split('\n')[0] : String(err)}`, { cause: err })
  }
  const { document } = parseHTML(`<!doctype html><html><head></head><body>${html}</body></html>`)
  const b = new DocumentBuilder()
  htmlToDocument(document.body as never, b)
  const firstH1 = document.querySelector('h1')?.textContent ?? null
  return b.build((await coreTitle(zip)) ?? firstH1)
}

async function coreTitle(zip: JSZip): Promise<string | null> {
  const core = await zip
    .file('docProps/core.xml')
    ?.async('string')
    .catch(() => null)
  const raw = core?.match(/<dc:title>([\s\S]*?)<\/dc:title>/)?.[1]
  const title = raw ? decodeEntities(raw).trim() : ''
  return title || null
}
