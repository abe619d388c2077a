// What the crawler needs from a page: its links, its declared canonical URL and its robots directives.
// A streaming parser (htmlparser2, the tokenizer under linkedom) reads them in one pass without building
// a DOM; the page's text is extracted later by the ingest parser, not here.
import { Parser } from 'htmlparser2'

export interface PageLinks {
  /** Absolute hrefs of <a>/<area> (not yet canonicalised), in document order, without rel=nofollow ones. */
  links: string[]
  /** The first <title>, whitespace collapsed. */
  title: string | null
  /** <link rel=canonical href>, absolute. */
  canonical: string | null
  /** <meta name=robots> (or a robots header) says noindex / nofollow. */
  noindex: boolean
  nofollow: boolean
}

function resolve(href: string | undefined, base: string): string | null {
  if (!href) return null
  try {
    return new URL(href.trim(), base).href
  } catch {
    return null
  }
}

/** Directives of `<meta name=robots>` or `X-Robots-Tag` that address every crawler (or no one in particular). */
export function robotsDirectives(value: string | null | undefined): { noindex: boolean; nofollow: boolean } {
  const v = (value ?? '').toLowerCase()
  return { noindex: /\b(noindex|none)\b/.test(v), nofollow: /\b(nofollow|none)\b/.test(v) }
}

export function extractLinks(html: string, pageUrl: string): PageLinks {
  let base = pageUrl
  let baseSeen = false
  const hrefs: string[] = []
  let canonical: string | null = null
  let robots = ''
  let title: string | null = null
  let inTitle = false
  const parser = new Parser(
    {
      onopentag(name, attrs) {
        if (name === 'base' && !baseSeen && attrs.href) {
          // Only the first <base> counts, and only for links after it (browsers resolve the same way).
          baseSeen = true
          base = resolve(attrs.href, pageUrl) ?? base
        } else if ((name === 'a' || name === 'area') && attrs.href !== undefined) {
          if (/\bnofollow\b/i.test(attrs.rel ?? '')) return
          const abs = resolve(attrs.href, base)
          if (abs) hrefs.push(abs)
        } else if (name === 'link' && /(^|\s)canonical(\s|$)/i.test(attrs.rel ?? '') && canonical === null) {
          canonical = resolve(attrs.href, base)
        } else if (name === 'title' && title === null) {
          inTitle = true
          title = ''
        } else if (name === 'meta' && /^(robots)$/i.test(attrs.name ?? '')) {
          robots += ` ${attrs.content ?? ''}`
        }
      },
      ontext(text) {
        if (inTitle) title += text
      },
      onclosetag(name) {
        if (name === 'title') inTitle = false
      },
    },
    { decodeEntities: true, lowerCaseTags: true, lowerCaseAttributeNames: true },
  )
  parser.write(html)
  parser.end()
  const cleanTitle = (title as string | null)?.replace(/\s+/g, ' ').trim() || null
  return { links: hrefs, title: cleanTitle, canonical, ...robotsDirectives(robots) }
}

/** The body as text, in the charset the response declared (UTF-8 when none or unknown). */
export function decodeBody(body: Buffer, contentType: string | null): string {
  const charset = /charset\s*=\s*"?([\w.:-]+)/i.exec(contentType ?? '')?.[1]
  if (charset) {
    try {
      return new TextDecoder(charset).decode(body)
    } catch {
      // An unknown label: fall through to UTF-8, which is what most pages that mislabel themselves are.
    }
  }
  return new TextDecoder('utf-8').decode(body)
}
