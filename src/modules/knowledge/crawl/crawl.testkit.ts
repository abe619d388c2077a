// A small website on 127.0.0.1 for the crawl tests: robots.txt with a disallowed folder and a Sitemap:
// line, a sitemap and a sitemap index, a redirect, an ETag'd page, a page that changes, a page that can be
// removed, a PDF and a text file, and links to addresses the outbound policy must refuse.
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TestSite {
  origin: string
  port: number
  /** Paths requested, in order. */
  hits: string[]
  /** Bumped to change /docs/a. */
  version: number
  /** /docs/b answers 404 when true. */
  removeB: boolean
  /** /orphan is listed in the sitemap when true. */
  orphanInSitemap: boolean
  /** /about sends an ETag and answers 304 to a matching If-None-Match when true. */
  etags: boolean
  close(): Promise<void>
}

const page = (title: string, body: string, head = '') =>
  `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>${head}</head><body><main><h1>${title}</h1>${body}</main></body></html>`

export async function startTestSite(): Promise<TestSite> {
  const site: TestSite = {
    origin: '',
    port: 0,
    hits: [],
    version: 1,
    removeB: false,
    orphanInSitemap: true,
    etags: true,
    close: async () => {},
  }
  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost')
    site.hits.push(url.pathname + url.search)
    const html = (status: number, body: string, headers: Record<string, string> = {}) => {
      res.writeHead(status, { 'content-type': 'text/html; charset=utf-8', ...headers })
      res.end(body)
    }
    switch (url.pathname) {
      case '/robots.txt':
        res.writeHead(200, { 'content-type': 'text/plain' })
        return res.end(`User-agent: *\nDisallow: /private/\nCrawl-delay: 0.02\n\nSitemap: ${site.origin}/sitemap.xml\n`)
      case '/sitemap.xml': {
        const urls = ['/', ...(site.orphanInSitemap ? ['/orphan'] : [])]
        res.writeHead(200, { 'content-type': 'application/xml' })
        return res.end(
          `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">` + urls.map((u) => `<url><loc>${site.origin}${u}</loc></url>`).join('') + `</urlset>`,
        )
      }
      case '/sitemap-index.xml':
        res.writeHead(200, { 'content-type': 'text/xml' })
        return res.end(`<?xml version="1.0"?><sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9"><sitemap><loc>${site.origin}/sitemap.xml</loc></sitemap></sitemapindex>`)
      case '/':
        return html(
          200,
          page(
            'Home',
            `<p>Welcome to the help centre.</p>
            <a href="/about">About</a> <a href="/about#team">Team</a> <a href="/about?utm_source=news&amp;utm_medium=mail">About again</a>
            <a href="docs/a">Doc A</a> <a href="/docs/b">Doc B</a> <a href="/private/secret">Secret</a>
            <a href="/old">Old page</a> <a href="/file.pdf">Brochure</a> <a href="/notes.txt">Notes</a>
            <a href="mailto:help@example.com">Mail</a> <a href="javascript:void(0)">JS</a>
            <a href="http://169.254.169.254/latest/meta-data/">Metadata</a> <a href="http://[::ffff:169.254.169.254]/">Metadata v6</a>`,
          ),
        )
      case '/about': {
        const etag = '"about-v1"'
        if (site.etags && req.headers['if-none-match'] === etag) {
          res.writeHead(304, { etag })
          return res.end()
        }
        return html(200, page('About us', '<p>We answer support questions about billing and shipping.</p>', '<link rel="canonical" href="/about">'), site.etags ? { etag } : {})
      }
      case '/docs/a':
        return html(200, page('Doc A', `<p>Refunds are processed within ${site.version === 1 ? 'five' : 'three'} business days.</p>`))
      case '/docs/b':
        if (site.removeB) return html(404, page('Not found', '<p>Gone.</p>'))
        return html(200, page('Doc B', '<p>Shipping takes two weeks to remote islands.</p>'))
      case '/old':
        res.writeHead(301, { location: '/new' })
        return res.end()
      case '/new':
        return html(200, page('New page', '<p>The page that moved here explains warranty claims.</p>'))
      case '/orphan':
        return html(200, page('Orphan', '<p>Only the sitemap links to this page about gift cards.</p>'))
      case '/private/secret':
        return html(200, page('Secret', '<p>Never crawl me.</p>'))
      case '/file.pdf':
        res.writeHead(200, { 'content-type': 'application/pdf' })
        return res.end('%PDF-1.4 not really')
      case '/notes.txt':
        res.writeHead(200, { 'content-type': 'text/plain; charset=utf-8' })
        return res.end('Opening hours: Monday to Friday, 9 to 17.')
      default:
        return html(404, page('Not found', '<p>No such page.</p>'))
    }
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  site.port = (server.address() as AddressInfo).port
  site.origin = `http://127.0.0.1:${site.port}`
  site.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections()
      server.close(() => resolve())
    })
  return site
}

/** A three-page site whose robots.txt asks for `Crawl-delay: <seconds>`; every request's arrival time is kept. */
export async function startPoliteSite(delaySeconds: number): Promise<{ origin: string; hits: { path: string; at: number }[]; close(): Promise<void> }> {
  const hits: { path: string; at: number }[] = []
  const server = createServer((req, res) => {
    const path = new URL(req.url ?? '/', 'http://localhost').pathname
    hits.push({ path, at: performance.now() })
    if (path === '/robots.txt') {
      res.writeHead(200, { 'content-type': 'text/plain' })
      return res.end(`User-agent: *\nCrawl-delay: ${delaySeconds}\n`)
    }
    const pages: Record<string, string> = {
      '/': page('Home', '<p>Start here.</p><a href="/a">A</a> <a href="/b">B</a>'),
      '/a': page('Returns', '<p>Returns are accepted within thirty days.</p>'),
      '/b': page('Shipping', '<p>Parcels leave the warehouse every morning.</p>'),
    }
    res.writeHead(pages[path] ? 200 : 404, { 'content-type': 'text/html; charset=utf-8' })
    res.end(pages[path] ?? page('Not found', '<p>No such page.</p>'))
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return {
    origin: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
