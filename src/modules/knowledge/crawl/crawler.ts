// The site crawler: no database, no tenant. It walks a site breadth-first from a start URL (a page or a
// sitemap), within robots.txt, the outbound address policy and the caller's scope, and reports every
// URL it decides about through `onEvent`, awaiting it (the caller's writes pace the crawl). What counts
// as unchanged and what counts as removed is decided here, against the pages the caller knew before.
import { createHash } from 'node:crypto'
import { decodeBody, extractLinks, robotsDirectives } from './crawl-html.js'
import { Fetcher } from './crawl-fetcher.js'
import { loadRobots, type RobotsRules } from './crawl-robots.js'
import { looksLikeSitemap, parseSitemap } from './crawl-sitemap.js'
import { canonicalUrl, compileUrlFilter, sameSite } from './crawl-urls.js'
import { CRAWL_DEFAULTS, type CrawlEvent, type CrawlOptions, type CrawlSummary, type PreviousPage } from './crawler.types.js'

export * from './crawler.types.js'

interface Item {
  url: string
  depth: number
  start?: boolean
}

const MAX_SITEMAPS = 25
const PAGE_TYPES = new Map<string, 'html' | 'text'>([
  ['text/html', 'html'],
  ['application/xhtml+xml', 'html'],
  ['text/plain', 'text'],
])
const mediaType = (ct: string | null) => (ct ?? '').split(';')[0].trim().toLowerCase()
const sha256 = (b: Buffer) => createHash('sha256').update(b).digest('hex')
/** Gone for good: the page is removed even when the crawl stopped early. */
const GONE = new Set([404, 410])
/** Worth another try later: the crawl is not complete, and the page is kept. */
const transientStatus = (s: number) => s === 408 || s === 429 || s >= 500

export class CrawlInputError extends Error {
  override readonly name = 'CrawlInputError'
}

export async function crawlSite(options: CrawlOptions, onEvent: (e: CrawlEvent) => Promise<void> | void): Promise<CrawlSummary> {
  const o = { ...CRAWL_DEFAULTS, ...options }
  const canonicalStart = canonicalUrl(o.url)
  if (!canonicalStart) throw new CrawlInputError('The start URL must be an absolute http(s) URL.')
  const start: string = canonicalStart
  const startUrl = new URL(start)
  // A crawl that starts below the root stays in the start's folder unless include patterns say otherwise.
  const folder = startUrl.pathname.replace(/[^/]*$/, '')
  const include = o.include?.length ? o.include : folder !== '/' && !/\.xml(\.gz)?$/i.test(startUrl.pathname) ? [folder] : []
  const inPatterns = compileUrlFilter(include, o.exclude ?? [])
  const inScope = (url: string) => (!o.sameSite || sameSite(url, start)) && inPatterns(url)

  const fetcher = new Fetcher({ policy: o.policy, userAgent: o.userAgent, timeoutMs: o.timeoutMs, maxRedirects: o.maxRedirects, perHostConcurrency: o.perHostConcurrency, minDelayMs: o.minDelayMs })
  const controller = new AbortController()
  const signal = o.signal ? AbortSignal.any([o.signal, controller.signal]) : controller.signal
  // Only known pages of this crawl's scope are judged: a base may also hold pages of other sites or folders,
  // crawled from other start URLs, which this crawl must not remove for not reaching them.
  const previous = new Map<string, PreviousPage>()
  for (const p of o.previous ?? []) {
    const key = canonicalUrl(p.url)
    if (key && sameSite(key, start) && inPatterns(key)) previous.set(key, p)
  }

  const robots = new Map<string, Promise<RobotsRules>>()
  const robotsFor = (url: string) => {
    const origin = new URL(url).origin
    let r = robots.get(origin)
    if (!r) {
      r = loadRobots(fetcher, origin, o.robotsAgent, signal).then((rules) => {
        if (rules.crawlDelayMs) fetcher.setCrawlDelay(new URL(url).host, Math.min(rules.crawlDelayMs, o.maxCrawlDelayMs))
        return rules
      })
      robots.set(origin, r)
    }
    return r
  }

  const seen = new Set<string>([start])
  /** Final URLs handled (fetched, or known through a redirect or rel=canonical): their other spellings are aliases. */
  const done = new Set<string>()
  const queue: Item[] = [{ url: start, depth: 0, start: true }]
  const kept = new Set<string>()
  const gone = new Map<string, string>()
  const byChecksum = new Map<string, string>()
  const counts = { found: 0, pages: 0, unchanged: 0, skipped: 0, failed: 0 }
  const notes: string[] = []
  let transientFailures = 0
  let reseeded = false
  let startOutcome: CrawlSummary['startOutcome'] = 'page'
  let startError: string | null = null

  const emit = async (e: CrawlEvent) => {
    if ((e.kind === 'skipped' || e.kind === 'failed') && e.url === start) startError = e.reason
    counts.found++
    if (e.kind === 'page') counts.pages++
    else counts[e.kind === 'unchanged' ? 'unchanged' : e.kind === 'skipped' ? 'skipped' : 'failed']++
    if (e.kind === 'page' || e.kind === 'unchanged') kept.add(e.url)
    await onEvent(e)
  }
  /** A previously known page that is now definitely not a page of the crawl (gone, disallowed, noindex, …). */
  const drop = (url: string, reason: string) => {
    if (previous.has(url)) gone.set(url, reason)
  }
  let waiters: (() => void)[] = []
  const notify = () => {
    const w = waiters
    waiters = []
    for (const f of w) f()
  }
  const push = (url: string, depth: number) => {
    if (seen.has(url) || depth > o.maxDepth || !inScope(url)) return
    seen.add(url)
    queue.push({ url, depth })
    notify()
  }

  const sitemapsRead = new Set<string>()
  async function readSitemap(url: string, nesting: number, body?: Buffer): Promise<void> {
    if (sitemapsRead.has(url) || sitemapsRead.size >= MAX_SITEMAPS || nesting > 2) return
    sitemapsRead.add(url)
    if (!body) {
      const out = await fetcher.fetch({ url, accept: () => true, maxBytes: o.maxSitemapBytes, signal })
      if (out.kind !== 'response' || out.status !== 200 || !out.body) {
        if (!(out.kind === 'response' && GONE.has(out.status))) notes.push(`sitemap ${url}: ${out.kind === 'response' ? (out.tooLarge ? 'too large' : `HTTP ${out.status}`) : out.reason}`)
        return
      }
      body = out.body
    }
    try {
      const map = parseSitemap(body)
      for (const loc of map.urls) {
        const c = canonicalUrl(loc, url)
        if (!c) continue
        if (map.kind === 'index') await readSitemap(c, nesting + 1)
        else push(c, 0)
      }
    } catch (err) {
      notes.push(`sitemap ${url}: ${(err as Error).message}`)
    }
  }

  async function visit(item: Item): Promise<void> {
    done.add(item.url)
    const rules = await robotsFor(item.url)
    if (rules.refused) return emit({ kind: 'skipped', url: item.url, reason: rules.refused })
    if (rules.unavailable) {
      transientFailures++
      return emit({ kind: 'skipped', url: item.url, reason: rules.unavailable })
    }
    if (!rules.allowed(item.url)) {
      drop(item.url, 'disallowed by robots.txt')
      return emit({ kind: 'skipped', url: item.url, reason: 'disallowed by robots.txt' })
    }
    const out = await fetcher.fetch({
      url: item.url,
      accept: (ct) => PAGE_TYPES.has(mediaType(ct)) || (item.start === true && looksLikeSitemap(item.url, ct)),
      maxBytes: Math.max(o.maxBodyBytes, item.start ? o.maxSitemapBytes : 0),
      validators: (u) => {
        const p = previous.get(canonicalUrl(u) ?? u)
        return p && (p.etag || p.lastModified) ? { etag: p.etag, lastModified: p.lastModified } : null
      },
      signal,
    })
    if (out.kind === 'refused') return emit({ kind: 'skipped', url: item.url, reason: out.reason })
    if (out.kind === 'error') {
      transientFailures++
      return emit({ kind: 'failed', url: item.url, reason: out.reason, transient: true })
    }
    const finalUrl = canonicalUrl(out.url) ?? out.url
    if (finalUrl !== item.url) {
      if ((o.sameSite && !sameSite(finalUrl, start)) || (!item.start && !inPatterns(finalUrl))) {
        return emit({ kind: 'skipped', url: item.url, reason: `redirects to ${finalUrl}, outside the crawl's scope` })
      }
      // An alias of a page already crawled (or being crawled) is not a URL of its own: no event, not counted.
      if (done.has(finalUrl)) return
      seen.add(finalUrl)
    }
    done.add(finalUrl)
    if (out.status === 304) {
      const key = previous.has(finalUrl) ? finalUrl : item.url
      const p = previous.get(key)
      if (!p) return emit({ kind: 'failed', url: finalUrl, reason: 'HTTP 304 to an unconditional request', transient: false })
      // A 304 carries no body, so this page's links are unknown: every known page is visited directly instead,
      // and none of them can look removed merely for being unlinked.
      if (!reseeded) {
        reseeded = true
        for (const url of previous.keys()) push(url, Math.min(item.depth + 1, o.maxDepth))
      }
      return emit({
        kind: 'unchanged',
        url: key,
        etag: out.headers.etag ?? p.etag,
        lastModified: out.headers['last-modified'] ?? p.lastModified,
        checksum: p.checksum,
        notModified: true,
        content: null,
      })
    }
    if (GONE.has(out.status)) {
      drop(item.url, `HTTP ${out.status}`)
      drop(finalUrl, `HTTP ${out.status}`)
      return emit({ kind: 'failed', url: item.url, reason: `HTTP ${out.status}`, transient: false })
    }
    if (out.status !== 200) {
      const transient = transientStatus(out.status)
      if (transient) {
        transientFailures++
        kept.add(item.url)
      }
      if (out.status < 400) return emit({ kind: 'skipped', url: item.url, reason: `HTTP ${out.status}` })
      return emit({ kind: 'failed', url: item.url, reason: `HTTP ${out.status}`, transient })
    }
    if (out.tooLarge) return emit({ kind: 'skipped', url: item.url, reason: `larger than ${o.maxBodyBytes} bytes` })
    const type = mediaType(out.contentType)
    if (item.start && !PAGE_TYPES.has(type) && out.body) {
      startOutcome = 'sitemap'
      await readSitemap(finalUrl, 0, out.body)
      if (seen.size === 1) startError = notes.at(-1) ?? "the sitemap lists no page within the crawl's scope"
      return
    }
    const format = PAGE_TYPES.get(type)
    if (!format || !out.body) {
      drop(finalUrl, 'no longer an HTML or text page')
      return emit({ kind: 'skipped', url: item.url, reason: `unsupported content type ${type || '(none)'}` })
    }
    let docUrl = finalUrl
    const header = robotsDirectives(out.headers['x-robots-tag'])
    let noindex = header.noindex
    let title: string | null = null
    if (format === 'html') {
      const page = extractLinks(decodeBody(out.body, out.contentType), out.url)
      title = page.title
      noindex ||= page.noindex
      if (!page.nofollow && !header.nofollow && item.depth < o.maxDepth) {
        for (const link of page.links) {
          const c = canonicalUrl(link)
          if (c) push(c, item.depth + 1)
        }
      }
      const declared = page.canonical ? canonicalUrl(page.canonical) : null
      if (declared && declared !== finalUrl && sameSite(declared, finalUrl)) {
        if (done.has(declared)) return // an alias, as for redirects
        seen.add(declared)
        done.add(declared)
        docUrl = declared
      }
    }
    if (item.start && !inPatterns(docUrl)) return emit({ kind: 'skipped', url: docUrl, reason: 'outside the include/exclude patterns (visited for its links only)' })
    if (noindex) {
      drop(docUrl, 'noindex')
      return emit({ kind: 'skipped', url: docUrl, reason: 'the page asks not to be indexed (noindex)' })
    }
    const checksum = sha256(out.body)
    const twin = byChecksum.get(checksum)
    if (twin && twin !== docUrl) return emit({ kind: 'skipped', url: docUrl, reason: `same content as ${twin}` })
    byChecksum.set(checksum, docUrl)
    const etag = out.headers.etag ?? null
    const lastModified = out.headers['last-modified'] ?? null
    const before = previous.get(docUrl)
    const contentType = out.contentType ?? type
    if (before && before.checksum === checksum) {
      return emit({ kind: 'unchanged', url: docUrl, etag, lastModified, checksum, notModified: false, content: { body: out.body, contentType, format, title } })
    }
    return emit({ kind: 'page', url: docUrl, requestedUrl: item.url, finalUrl, depth: item.depth, body: out.body, contentType, format, title, etag, lastModified, checksum })
  }

  let fetched = 0
  let active = 0
  let failure: unknown = null
  async function worker(): Promise<void> {
    while (!signal.aborted) {
      const item = queue.shift()
      if (!item) {
        if (active === 0) return notify()
        await new Promise<void>((r) => waiters.push(r))
        continue
      }
      if (done.has(item.url)) continue
      if (fetched >= o.maxPages) {
        queue.unshift(item)
        return notify()
      }
      fetched++
      active++
      try {
        await visit(item)
      } catch (err) {
        failure ??= err
        controller.abort()
      } finally {
        active--
        notify()
      }
    }
  }

  try {
    // Sitemap discovery: the start origin's robots.txt Sitemap: lines, else /sitemap.xml.
    const rules = await robotsFor(start)
    if (o.sitemaps && !rules.refused) {
      const listed = rules.unavailable ? [] : rules.sitemaps.map((s) => canonicalUrl(s)).filter((s): s is string => s !== null)
      for (const s of listed.length ? listed : [`${startUrl.origin}/sitemap.xml`]) if (s !== start) await readSitemap(s, 0)
    }
    await Promise.all(Array.from({ length: o.workers }, () => worker()))
  } finally {
    await fetcher.close()
  }
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- a worker's failure, rethrown as it was caught
  if (failure) throw failure

  const unvisited = queue.filter((i) => !done.has(i.url)).length
  counts.found += unvisited
  const complete = !signal.aborted && unvisited === 0 && transientFailures === 0 && kept.size > 0
  const removed: CrawlSummary['removed'] = []
  for (const [url] of previous) {
    const why = gone.get(url) ?? (complete && !kept.has(url) ? 'no longer linked from the site' : null)
    if (why && !kept.has(url)) removed.push({ url, reason: why })
  }
  return {
    counts: { ...counts, removed: removed.length },
    complete,
    incompleteReason: complete
      ? null
      : signal.aborted
        ? 'stopped'
        : unvisited > 0
          ? `page limit of ${o.maxPages} reached (${unvisited} page(s) not visited)`
          : transientFailures > 0
            ? `${transientFailures} page(s) could not be fetched this time`
            : 'nothing could be crawled',
    removed,
    notes,
    startOutcome,
    startError,
  }
}
