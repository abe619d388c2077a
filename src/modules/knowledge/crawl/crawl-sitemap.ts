// Sitemaps (sitemaps.org 0.9): a <urlset> lists pages, a <sitemapindex> lists other sitemaps. Parsed with
// a real XML parser (fast-xml-parser: no native code, no external entities), namespaces stripped so
// prefixed documents (`<sm:urlset>`) read the same. Gzipped sitemaps (`.xml.gz`) are inflated first.
import { gunzipSync } from 'node:zlib'
import { XMLParser } from 'fast-xml-parser'

export interface Sitemap {
  kind: 'urlset' | 'index'
  /** Page URLs (urlset) or sitemap URLs (index), absolute, as written. */
  urls: string[]
}

/** The protocol caps a sitemap at 50,000 URLs; more is not read. */
export const MAX_SITEMAP_URLS = 50_000
/** A gzipped sitemap may not inflate beyond this (the protocol's 50 MiB uncompressed limit). */
const MAX_INFLATED_BYTES = 50 * 1024 * 1024

const parser = new XMLParser({
  ignoreAttributes: true,
  removeNSPrefix: true,
  parseTagValue: false,
  trimValues: true,
  isArray: (name) => name === 'url' || name === 'sitemap',
})

export class SitemapError extends Error {
  override readonly name = 'SitemapError'
}

function locs(entries: unknown): string[] {
  if (!Array.isArray(entries)) return []
  const out: string[] = []
  for (const e of entries) {
    const loc = (e as { loc?: unknown } | null)?.loc
    if (typeof loc === 'string' && loc.trim() !== '') out.push(loc.trim())
    if (out.length >= MAX_SITEMAP_URLS) break
  }
  return out
}

export function parseSitemap(body: Buffer): Sitemap {
  let bytes = body
  if (bytes.length > 2 && bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes, { maxOutputLength: MAX_INFLATED_BYTES })
    } catch (err) {
      throw new SitemapError(`The sitemap could not be inflated: ${(err as Error).message}`)
    }
  }
  let doc: Record<string, any>
  try {
    doc = parser.parse(bytes.toString('utf8'))
  } catch (err) {
    throw new SitemapError(`The sitemap is not valid XML: ${(err as Error).message}`)
  }
  if (doc?.urlset !== undefined) return { kind: 'urlset', urls: locs(doc.urlset?.url) }
  if (doc?.sitemapindex !== undefined) return { kind: 'index', urls: locs(doc.sitemapindex?.sitemap) }
  throw new SitemapError('The document is neither a <urlset> nor a <sitemapindex>.')
}

/** Content that is worth trying as a sitemap: XML types, or a URL that says so. */
export function looksLikeSitemap(url: string, contentType: string | null): boolean {
  const type = (contentType ?? '').split(';')[0].trim().toLowerCase()
  if (type === 'application/xml' || type === 'text/xml' || (type.endsWith('+xml') && type !== 'application/xhtml+xml')) return true
  if (type === 'application/gzip' || type === 'application/x-gzip') return /\.xml\.gz$/i.test(new URL(url).pathname)
  return false
}
