import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { startPoliteSite, startTestSite, type TestSite } from '../crawl/crawl.testkit.js'

let lastSeen: unknown = null

async function waitFor<T>(what: string, probe: () => Promise<T | null | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const until = Date.now() + timeoutMs
  for (;;) {
    const v = await probe()
    if (v) return v
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}; last seen: ${JSON.stringify(lastSeen)}`)
    await new Promise((r) => setTimeout(r, 100))
  }
}

async function createBase(h: TestApp, key?: string): Promise<string> {
  const r = await h.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Help centre' }, key })
  assert.equal(r.statusCode, 201, r.body)
  return json(r).id
}

/** The crawl, once the base's last_crawl says it has finished. */
async function finished(h: TestApp, kbId: string, crawlId: string): Promise<any> {
  return waitFor('the crawl to finish', async () => {
    const base = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kbId}` }))
    const last = base.last_crawl
    lastSeen = last
    return last && last.id === crawlId && (last.status === 'completed' || last.status === 'failed') ? last : null
  })
}

/** The base's documents, once none is waiting to be processed. */
async function settledDocuments(h: TestApp, kbId: string): Promise<any[]> {
  return waitFor('documents to be processed', async () => {
    const docs = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kbId}/documents?limit=100` })).data as any[]
    lastSeen = docs.map((d) => [d.source_url, d.status])
    return docs.every((d) => d.status === 'ready' || d.status === 'failed') ? docs : null
  })
}

const crawl = (h: TestApp, payload: object, key?: string) => h.request({ method: 'POST', url: '/v2/knowledge/crawl', payload, key })

describe('POST /knowledge/crawl', () => {
  let h: TestApp
  let site: TestSite
  before(async () => {
    h = await createTestApp() // private networks allowed in tests: the site is on 127.0.0.1
    h.app.kernel.jobs.start()
    site = await startTestSite()
  })
  after(async () => {
    await h.close()
    await site.close()
  })

  let kbId: string
  it('crawls the site into documents of origin crawl, and re-crawls only what changed', async () => {
    kbId = await createBase(h)
    const r = await crawl(h, { knowledge_base_id: kbId, url: `${site.origin}/` })
    assert.equal(r.statusCode, 202, r.body)
    const started = json(r)
    assert.match(started.id, /^crl_/)
    assert.equal(started.object, 'knowledge_crawl')
    assert.equal(started.status, 'queued')
    assert.deepEqual(started.options, { max_pages: 100, max_depth: 3, include: [], exclude: [], same_site: true })

    const busy = await crawl(h, { knowledge_base_id: kbId, url: `${site.origin}/` })
    assert.equal(busy.statusCode, 409, busy.body)
    assert.equal(json(busy).code, 'knowledge_crawl_in_progress')

    const first = await finished(h, kbId, started.id)
    assert.equal(first.status, 'completed', JSON.stringify(first))
    assert.equal(first.complete, true)
    assert.deepEqual(first.counts, { found: 9, indexed: 7, unchanged: 0, skipped: 2, failed: 0, removed: 0 })
    assert.deepEqual(first.skipped.map((s: any) => s.url.replace(site.origin, '')).sort(), ['/file.pdf', '/private/secret'])
    assert.ok(!site.hits.includes('/private/secret'))

    const docs = await settledDocuments(h, kbId)
    assert.deepEqual(docs.map((d) => d.source_url.replace(site.origin, '')).sort(), ['/', '/about', '/docs/a', '/docs/b', '/new', '/notes.txt', '/orphan'])
    for (const d of docs) {
      assert.equal(d.status, 'ready', `${d.source_url}: ${d.error}`)
      assert.equal(d.origin, 'crawl')
      assert.equal(d.crawl_id, started.id)
    }
    const docA = docs.find((d) => d.source_url.endsWith('/docs/a'))
    assert.equal(docs.find((d) => d.source_url.endsWith('/about')).title, 'About us')

    site.version = 2
    site.removeB = true
    const again = json(await crawl(h, { knowledge_base_id: kbId, url: `${site.origin}/` }))
    const second = await finished(h, kbId, again.id)
    assert.equal(second.status, 'completed', JSON.stringify(second))
    assert.deepEqual(second.counts, { found: 9, indexed: 1, unchanged: 5, skipped: 2, failed: 1, removed: 1 })
    assert.deepEqual(second.failed, [{ url: `${site.origin}/docs/b`, reason: 'HTTP 404' }])

    const after = await settledDocuments(h, kbId)
    assert.ok(!after.some((d) => d.source_url.endsWith('/docs/b')), 'the removed page is gone')
    const docA2 = after.find((d) => d.source_url.endsWith('/docs/a'))
    assert.equal(docA2.id, docA.id, 'a changed page updates its document')
    assert.notEqual(docA2.checksum, docA.checksum)
    assert.equal(docA2.crawl_id, again.id)
    const text = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${docA.id}?include=text` })).text
    assert.match(text, /three business days/)
  })

  it('honours robots.txt Crawl-delay: requests to the host start at least that far apart', async () => {
    const polite = await startPoliteSite(1)
    try {
      const kb = await createBase(h)
      const started = json(await crawl(h, { knowledge_base_id: kb, url: `${polite.origin}/` }))
      const done = await finished(h, kb, started.id)
      assert.equal(done.counts.indexed, 3, JSON.stringify(done))
      // robots.txt, /sitemap.xml (discovery, 404), then the three pages: the delay counts from robots.txt on.
      assert.deepEqual(polite.hits.map((x) => x.path).sort(), ['/', '/a', '/b', '/robots.txt', '/sitemap.xml'])
      const gaps = polite.hits.slice(1).map((x, i) => Math.round(x.at - polite.hits[i].at))
      // Measured where the requests arrive, so a new connection's set-up shifts one arrival a little (~20 ms
      // seen) — the crawler's own spacing without Crawl-delay is 250 ms.
      assert.ok(
        gaps.every((ms) => ms >= 900),
        `gaps between requests: ${gaps.join(', ')} ms`,
      )
    } finally {
      await polite.close()
    }
  })

  it('answers 422 invalid_reference at /body/knowledge_base_id for an unknown base and for another workspace’s base (the 404 it answered was not in its OpenAPI entry)', async () => {
    for (const id of ['kb_unknown', await createBase(h, h.b.live)]) {
      const res = await crawl(h, { knowledge_base_id: id, url: `${site.origin}/` })
      assert.equal(res.statusCode, 422, res.body)
      assert.equal(JSON.parse(res.body).code, 'invalid_reference')
      assert.deepEqual(
        JSON.parse(res.body).errors.map((e: { pointer: string }) => e.pointer),
        ['/body/knowledge_base_id'],
      )
    }
  })

  it('refuses metadata and link-local start URLs at once (422), whatever the operator allows', async () => {
    const kb = await createBase(h)
    for (const url of ['http://169.254.169.254/latest/meta-data/', 'http://[::ffff:169.254.169.254]/', 'http://[fe80::1]/']) {
      const r = await crawl(h, { knowledge_base_id: kb, url })
      assert.equal(r.statusCode, 422, r.body)
      const p = json(r)
      assert.equal(p.code, 'knowledge_crawl_url_forbidden')
      assert.equal(p.errors[0].pointer, '/body/url')
      assert.match(p.detail, /never an allowed destination/)
    }
    const ftp = await crawl(h, { knowledge_base_id: kb, url: 'ftp://example.com/' })
    assert.equal(ftp.statusCode, 422, ftp.body)
  })
})

describe('POST /knowledge/crawl with private networks not allowed', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'false' } })
  })
  after(() => h.close())

  it('refuses a loopback start URL with a clear problem', async () => {
    const kb = await createBase(h)
    const r = await crawl(h, { knowledge_base_id: kb, url: 'http://127.0.0.1:9/' })
    assert.equal(r.statusCode, 422, r.body)
    const p = json(r)
    assert.equal(p.code, 'knowledge_crawl_url_forbidden')
    assert.match(p.detail, /127\.0\.0\.1 is a private address \(loopback\); private networks are not allowed\. .*OUTBOUND_ALLOW_PRIVATE_NETWORKS=true/)
    assert.ok(p.request_id)
  })
})

describe('a crawl whose worker died mid-way', () => {
  let h: TestApp
  let site: TestSite
  before(async () => {
    h = await createTestApp() // jobs not started: the crawl job is run by hand, twice
    site = await startTestSite()
  })
  after(async () => {
    await h.close()
    await site.close()
  })

  it('starts over when its job runs again, without duplicating documents', async () => {
    const kbId = await createBase(h)
    const started = json(await crawl(h, { knowledge_base_id: kbId, url: `${site.origin}/` }))
    const db = h.app.kernel.db
    const job = await db.selectFrom('jobs').select(['id', 'payload']).where('name', '=', 'knowledge.crawl_site').executeTakeFirstOrThrow()
    const run = () => h.app.services.knowledge.crawls.job.run(JSON.parse(job.payload), { jobId: job.id, attempt: 1 })
    await run()
    // The state a worker leaves when it dies after writing the pages and before finishing the crawl.
    await db.updateTable('knowledge_crawls').set({ status: 'running', finished_at: null }).where('id', '=', started.id).execute()
    await run()
    const last = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kbId}` })).last_crawl
    assert.equal(last.status, 'completed')
    assert.deepEqual(last.counts, { found: 9, indexed: 7, unchanged: 0, skipped: 2, failed: 0, removed: 0 })
    const docs = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kbId}/documents?limit=100` })).data as any[]
    assert.equal(docs.length, 7)
    assert.equal(new Set(docs.map((d) => d.source_url)).size, 7)
    const events = await db.selectFrom('events').select('type').where('type', '=', 'knowledge_crawl.completed').execute()
    assert.ok(events.length >= 1)
  })
})
