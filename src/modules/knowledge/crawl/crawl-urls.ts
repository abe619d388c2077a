// URL identity and scope for the crawler. Two spellings of one page must become one key, or the crawl
// fetches and indexes it twice; and every scope rule (same site, include/exclude) is decided on that key.
import picomatch from 'picomatch'

/** Query parameters that only say where a visitor came from: dropped so they do not split one page in many. */
const TRACKING = /^(utm_[a-z_]+|gclid|dclid|fbclid|msclkid|mc_cid|mc_eid|yclid|_ga|_gl|igshid|ref_src)$/i

/**
 * The canonical form of an absolute http(s) URL, or null for anything else (mailto:, javascript:, data:,
 * a relative reference with no base). Lower-case scheme and host (the URL parser does both and drops the
 * default port), no fragment, no credentials, tracking parameters removed and the rest sorted, and an
 * empty path written as `/`. The path keeps its case and its trailing slash: servers may tell them apart.
 */
export function canonicalUrl(raw: string, base?: string | URL): string | null {
  let url: URL
  try {
    url = new URL(raw.trim(), base)
  } catch {
    return null
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return null
  url.hash = ''
  url.username = ''
  url.password = ''
  // A trailing dot names the same host (`example.com.`).
  if (url.hostname.endsWith('.')) url.hostname = url.hostname.replace(/\.+$/, '')
  const params = [...url.searchParams].filter(([k]) => !TRACKING.test(k))
  params.sort(([a, av], [b, bv]) => (a === b ? (av < bv ? -1 : av > bv ? 1 : 0) : a < b ? -1 : 1))
  url.search = params.length ? new URLSearchParams(params).toString() : ''
  return url.href
}

/** The host a site is known by: `www.` is the same site as the bare name. */
function siteOf(url: URL): string {
  return url.hostname.replace(/^www\./, '')
}

/** Same site: the same host, ignoring a leading `www.`, on http or https and any port. */
export function sameSite(a: string | URL, b: string | URL): boolean {
  return siteOf(new URL(a)) === siteOf(new URL(b))
}

const GLOB_CHARS = /[*?[\]{}()!+@]/

/**
 * Include/exclude patterns, matched against the path and query of the canonical URL (`/docs/a?x=1`).
 * A pattern with no glob characters is a path prefix (`/docs` matches `/docs`, `/docs/` and `/docs/a`,
 * not `/docsearch`); otherwise it is a glob (picomatch: `*` within one segment, `**` across segments,
 * `{a,b}`, `?`), e.g. `/blog/**`, `/**\/*.html`, `/help/{en,fr}/**`. A pattern that is a full URL
 * (`https://…`) has its origin ignored. No includes = everything included; an exclude always wins.
 */
export interface UrlFilter {
  (url: string): boolean
}

export function compileUrlFilter(include: string[] = [], exclude: string[] = []): UrlFilter {
  const inc = include.map(compilePattern)
  const exc = exclude.map(compilePattern)
  return (raw) => {
    const url = new URL(raw)
    const target = url.pathname + url.search
    if (exc.some((m) => m(target, url.pathname))) return false
    return inc.length === 0 || inc.some((m) => m(target, url.pathname))
  }
}

type Matcher = (pathAndQuery: string, path: string) => boolean

function compilePattern(raw: string): Matcher {
  let pattern = raw.trim()
  if (/^https?:\/\//i.test(pattern)) {
    const m = /^https?:\/\/[^/]*(.*)$/i.exec(pattern)!
    pattern = m[1] || '/'
  }
  if (!pattern.startsWith('/')) pattern = `/${pattern}`
  if (!GLOB_CHARS.test(pattern)) {
    const prefix = pattern.replace(/\/+$/, '')
    return (_full, path) => prefix === '' || path === prefix || path.startsWith(`${prefix}/`) || path === `${prefix}/`
  }
  const isMatch = picomatch(pattern, { dot: true })
  return (full, path) => isMatch(path) || isMatch(full)
}

/** Errors of a pattern list, for a 422 before a crawl starts: picomatch throws on few inputs, so check shape. */
export function patternProblems(patterns: string[]): string[] {
  const problems: string[] = []
  for (const p of patterns) {
    if (p.trim() === '') problems.push('A pattern is empty.')
    else {
      try {
        compilePattern(p)
      } catch (err) {
        problems.push(`The pattern ${JSON.stringify(p)} is not valid: ${(err as Error).message}`)
      }
    }
  }
  return problems
}
