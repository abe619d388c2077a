import assert from 'node:assert/strict'
import type { LookupFunction } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { startTestSite, type TestSite } from './crawl.testkit.js'
import { canonicalUrl, compileUrlFilter } from './crawl-urls.js'
import { crawlSite, type CrawlEvent, type CrawlOptions, type PreviousPage } from './crawler.js'

const FAST = { minDelayMs: 0, timeoutMs: 3000 }

async function crawl(opts: CrawlOptions): Promise<{ events: CrawlEvent[]; summary: Awaited<ReturnType<typeof crawlSite>> }> {
  const events: CrawlEvent[] = []
  const summary = await crawlSite({ ...FAST, ...opts }, (e) => void events.push(e))
  return { events, summary }
}

const byKind = (events: CrawlEvent[], kind: CrawlEvent['kind']) => events.filter((e) => e.kind === kind)
const paths = (events: CrawlEvent[], origin: string) => events.map((e) => e.url.replace(origin, '')).sort()
const reasonOf = (events: CrawlEvent[], url: string) => {
  const e = events.find((x) => x.url === url)
  return e && 'reason' in e ? e.reason : undefined
}
const previousOf = (events: CrawlEvent[]): PreviousPage[] =>
  events.flatMap((e) => (e.kind === 'page' || e.kind === 'unchanged' ? [{ url: e.url, etag: e.etag, lastModified: e.lastModified, checksum: e.checksum }] : []))

/** A stand-in resolver: names of the test resolve to the given address (as DNS would), the rest fail. */
function resolver(map: Record<string, string | (() => string)>): LookupFunction {
  return ((host: string, options: { all?: boolean }, cb: (...a: unknown[]) => void) => {
    const entry = map[host]
    if (entry === undefined) return cb(Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: 'ENOTFOUND' }))
    const address = typeof entry === 'function' ? entry() : entry
    const family = address.includes(':') ? 6 : 4
    return options?.all ? cb(null, [{ address, family }]) : cb(null, address, family)
  }) as unknown as LookupFunction
}

describe('crawl URLs', () => {
  it('canonicalises host case, default port, fragment, tracking parameters and parameter order', () => {
    assert.equal(canonicalUrl('HTTP://Example.COM:80/a/B?utm_source=x&b=2&a=1#frag'), 'http://example.com/a/B?a=1&b=2')
    assert.equal(canonicalUrl('https://example.com'), 'https://example.com/')
    assert.equal(canonicalUrl('mailto:a@b.c'), null)
    assert.equal(canonicalUrl('../x', 'https://example.com/a/b/c'), 'https://example.com/a/x')
  })

  it('matches path prefixes and globs, excludes winning', () => {
    const f = compileUrlFilter(['/docs', '/blog/*/2024/**'], ['/docs/internal/**', '**/*.pdf'])
    assert.equal(f('https://x.io/docs'), true)
    assert.equal(f('https://x.io/docs/a/b'), true)
    assert.equal(f('https://x.io/docsearch'), false)
    assert.equal(f('https://x.io/docs/internal/x'), false)
    assert.equal(f('https://x.io/docs/guide.pdf'), false)
    assert.equal(f('https://x.io/blog/news/2024/05/hello'), true)
    assert.equal(f('https://x.io/about'), false)
    assert.equal(compileUrlFilter()('https://x.io/anything'), true)
  })
})

describe('crawlSite on a local site', () => {
  let site: TestSite
  before(async () => {
    site = await startTestSite()
  })
  after(() => site.close())

  let first: Awaited<ReturnType<typeof crawl>>
  it('crawls within robots.txt, reads the sitemap, follows the redirect and skips what is not a page', async () => {
    first = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: true } })
    const { events, summary } = first
    assert.deepEqual(paths(byKind(events, 'page'), site.origin), ['/', '/about', '/docs/a', '/docs/b', '/new', '/notes.txt', '/orphan'])
    assert.equal(reasonOf(events, `${site.origin}/private/secret`), 'disallowed by robots.txt')
    assert.match(reasonOf(events, `${site.origin}/file.pdf`) ?? '', /unsupported content type application\/pdf/)
    assert.ok(!site.hits.includes('/private/secret'), 'a disallowed path is never requested')
    assert.ok(site.hits.includes('/sitemap.xml'))
    assert.equal(site.hits.filter((h) => h.startsWith('/about')).length, 1, 'fragment and tracking spellings are one page')
    const moved = byKind(events, 'page').find((e) => e.url === `${site.origin}/new`)
    assert.ok(moved && moved.kind === 'page' && moved.requestedUrl === `${site.origin}/old`)
    const about = byKind(events, 'page').find((e) => e.url === `${site.origin}/about`)
    assert.ok(about && about.kind === 'page' && about.etag === '"about-v1"' && about.title === 'About us' && about.format === 'html')
    const notes = byKind(events, 'page').find((e) => e.url === `${site.origin}/notes.txt`)
    assert.ok(notes && notes.kind === 'page' && notes.format === 'text' && notes.body.toString() === 'Opening hours: Monday to Friday, 9 to 17.')
    assert.ok(!events.some((e) => e.url.includes('169.254')), 'off-site links are out of scope')
    assert.equal(summary.complete, true)
    assert.deepEqual(summary.removed, [])
    assert.equal(summary.counts.pages, 7)
    assert.equal(summary.counts.found, events.length)
  })

  it('re-crawls: a 304 and the same checksum are unchanged, a changed page is a page, a 404 page is removed', async () => {
    site.version = 2
    site.removeB = true
    site.hits.length = 0
    const { events, summary } = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: true }, previous: previousOf(first.events) })
    assert.deepEqual(paths(byKind(events, 'page'), site.origin), ['/docs/a'])
    const unchanged = byKind(events, 'unchanged')
    assert.deepEqual(paths(unchanged, site.origin), ['/', '/about', '/new', '/notes.txt', '/orphan'])
    assert.ok(
      unchanged.some((e) => e.kind === 'unchanged' && e.url.endsWith('/about') && e.notModified),
      '/about answered 304',
    )
    assert.deepEqual(summary.removed, [{ url: `${site.origin}/docs/b`, reason: 'HTTP 404' }])
    assert.equal(summary.counts.removed, 1)
  })

  it('removes a known page no longer linked when the crawl is complete, not when the page limit cut it short', async () => {
    site.etags = false
    site.orphanInSitemap = false
    const previous = previousOf(first.events)
    const full = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: true }, previous })
    assert.equal(full.summary.complete, true)
    assert.deepEqual(full.summary.removed.map((r) => [r.url.replace(site.origin, ''), r.reason]).sort(), [
      ['/docs/b', 'HTTP 404'],
      ['/orphan', 'no longer linked from the site'],
    ])
    const cut = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: true }, previous, maxPages: 2 })
    assert.equal(cut.summary.complete, false)
    assert.match(cut.summary.incompleteReason ?? '', /page limit of 2/)
    assert.ok(!cut.summary.removed.some((r) => r.url.endsWith('/orphan')))
    site.etags = true
    site.orphanInSitemap = true
  })

  it('starts from a sitemap index, respects depth 0 and include/exclude patterns', async () => {
    const { events } = await crawl({ url: `${site.origin}/sitemap-index.xml`, policy: { allowPrivateNetworks: true }, maxDepth: 0 })
    assert.deepEqual(paths(byKind(events, 'page'), site.origin), ['/', '/orphan'])
    const docs = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: true }, include: ['/docs'], exclude: ['/docs/b'], sitemaps: false })
    assert.deepEqual(paths(byKind(docs.events, 'page'), site.origin), ['/docs/a'])
    assert.match(reasonOf(docs.events, `${site.origin}/`) ?? '', /visited for its links only/)
  })

  it('refuses metadata and link-local addresses even with private networks allowed', async () => {
    const { events } = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: true }, sameSite: false, maxDepth: 1, sitemaps: false })
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:a9fe:a9fe]/']) {
      const e = events.find((x) => x.url === url)
      assert.ok(e && e.kind === 'skipped', `${url} is reported`)
      assert.match((e as { reason: string }).reason, /refused by the outbound address policy: .*never an allowed destination/)
    }
  })

  it('refuses a private address when private networks are not allowed: by IP, by name, and at connect time', async () => {
    site.hits.length = 0
    const byIp = await crawl({ url: `${site.origin}/`, policy: { allowPrivateNetworks: false } })
    assert.match(byIp.summary.startError ?? '', /127\.0\.0\.1 is a private address \(loopback\); private networks are not allowed/)
    const byName = await crawl({ url: `http://site.test:${site.port}/`, policy: { allowPrivateNetworks: false, lookup: resolver({ 'site.test': '127.0.0.1' }) } })
    assert.match(byName.summary.startError ?? '', /site\.test resolves to 127\.0\.0\.1/)
    // DNS rebinding: public for the check, loopback for the socket.
    let calls = 0
    const rebinding = resolver({ 'site.test': () => (calls++ === 0 ? '93.184.215.14' : '127.0.0.1') })
    const rebound = await crawl({ url: `http://site.test:${site.port}/`, policy: { allowPrivateNetworks: false, lookup: rebinding } })
    assert.match(rebound.summary.startError ?? '', /refused by the outbound address policy: site\.test resolves to 127\.0\.0\.1/)
    assert.deepEqual(site.hits, [], 'nothing reached the site')
  })

  it('reaches a name through the connect-time lookup when private networks are allowed', async () => {
    const { events } = await crawl({ url: `http://site.test:${site.port}/notes.txt`, policy: { allowPrivateNetworks: true, lookup: resolver({ 'site.test': '127.0.0.1' }) }, sitemaps: false })
    assert.deepEqual(paths(byKind(events, 'page'), `http://site.test:${site.port}`), ['/notes.txt'])
  })
})

describe('extractLinks', () => {
  it('reads links after <base>, the canonical, the title and robots directives, and leaves out rel=nofollow links', async () => {
    const { extractLinks } = await import('./crawl-html.js')
    const page = extractLinks(
      `<html><head><title> Billing &amp; refunds </title><base href="https://x.io/help/"><link rel="canonical" href="/help/billing">
       <meta name="robots" content="noindex"></head><body><a href="a">A</a><a href="/b" rel="nofollow">B</a><area href="c"></body></html>`,
      'https://x.io/start',
    )
    assert.deepEqual(page.links, ['https://x.io/help/a', 'https://x.io/help/c'])
    assert.equal(page.canonical, 'https://x.io/help/billing')
    assert.equal(page.title, 'Billing & refunds')
    assert.equal(page.noindex, true)
    assert.equal(page.nofollow, false)
  })
})

describe('parseSitemap', () => {
  it('reads url sets and indexes, prefixed namespaces and gzip, and refuses what is not a sitemap', async () => {
    const { gzipSync } = await import('node:zlib')
    const { parseSitemap } = await import('./crawl-sitemap.js')
    const set = `<?xml version="1.0"?><sm:urlset xmlns:sm="http://www.sitemaps.org/schemas/sitemap/0.9"><sm:url><sm:loc> https://x.io/a </sm:loc></sm:url><sm:url><sm:loc>https://x.io/b?x=1&amp;y=2</sm:loc></sm:url></sm:urlset>`
    assert.deepEqual(parseSitemap(Buffer.from(set)), { kind: 'urlset', urls: ['https://x.io/a', 'https://x.io/b?x=1&y=2'] })
    const index = `<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>https://x.io/s1.xml</loc></sitemap></sitemapindex>`
    assert.deepEqual(parseSitemap(gzipSync(index)), { kind: 'index', urls: ['https://x.io/s1.xml'] })
    assert.throws(() => parseSitemap(Buffer.from('<html><body>hi</body></html>')), /neither a <urlset> nor a <sitemapindex>/)
  })
})
