import { decodeText } from './decode-text.js'
import { DocumentBuilder, type ParsedDocument } from './document-builder.js'
import { htmlToDocument } from './html-to-document.js'

/**
 * An HTML page → its main content, through Mozilla's Readability (Firefox Reader View) over linkedom, a
 * light DOM: navigation, sidebars and footers go, headings stay as sections. When Readability keeps much
 * less than the page says (a short page, a FAQ made of many small blocks) the whole body is read instead,
 * without its navigation and footer. `opts.url` (where a crawled page came from) is accepted for the seam:
 * links are not kept in the text, so nothing needs resolving against it yet.
 */
export async function parseHtml(input: Uint8Array, _opts: { url?: string } = {}): Promise<ParsedDocument> {
  const [{ Readability }, { parseHTML }] = await Promise.all([import('@mozilla/readability'), import('linkedom')])
  const parseDocumentHtml = (html: string) => {
    // linkedom builds a document only around a full page; a fragment gets one.
    const full = /<html[\s>]|<body[\s>]/i.test(html) ? html : `<!doctype html><html><head></head><body>${html}</body></html>`
    return parseHTML(full).document
  }
  const html = decodeText(input, declaredCharset(input))
  const document = parseDocumentHtml(html)
  const pageTitle = document.querySelector('title')?.textContent?.trim() || null
  const firstH1 = document.querySelector('h1')?.textContent?.trim() || null
  const body = parseDocumentHtml(html).body

  let article: { title?: string | null; content?: Node | null } | null = null
  try {
    const reader = new Readability<Node>(document as unknown as Document, { serializer: (el) => el, keepClasses: false })
    article = reader.parse()
  } catch {
    article = null // Readability gives up on some malformed pages; the body is read instead
  }

  const fromArticle = new DocumentBuilder()
  if (article?.content) {
    // Readability drops the <h1> that repeats the title; put it back so that heading paths start where
    // those of the same page in Markdown or Word would.
    const content = article.content as unknown as Element
    const kept = [...content.querySelectorAll('h1, h2')].some((h) => h.textContent?.trim() === firstH1)
    if (firstH1 && !kept) fromArticle.heading(1, firstH1)
    htmlToDocument(content as never, fromArticle, { dropChrome: true })
  }
  const fromBody = new DocumentBuilder()
  if (body) htmlToDocument(body as never, fromBody, { dropChrome: true })
  const a = fromArticle.build(null)
  const whole = fromBody.build(null)
  // Readability folds <h1> into the title and keeps the rest; when it keeps less than half the body's
  // text it has guessed wrong for this page.
  const chosen = a.text.length >= whole.text.length * 0.5 ? a : whole
  const title = article?.title?.trim() || pageTitle || firstH1
  return { ...chosen, title: title ? title.replace(/\s+/g, ' ') : null }
}

// <meta charset="…"> or http-equiv Content-Type within the first 1024 bytes, as browsers look for it.
function declaredCharset(input: Uint8Array): string | null {
  const head = new TextDecoder('latin1').decode(input.subarray(0, 1024))
  return head.match(/<meta[^>]+charset\s*=\s*["']?\s*([a-z0-9_.:-]+)/i)?.[1] ?? null
}
