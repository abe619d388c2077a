import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const REFUNDS = `# Refund policy

## Getting your money back

Customers can ask for a refund within 30 days of delivery. The refund goes back to the original card within five business days.

## Exchanges

Unworn items can be exchanged for another size at no cost.
`

describe('dashboard knowledge in Chromium: bases, upload with progress, crawl, search with citations, gaps', { skip }, () => {
  let d: Dashboard
  let site: Server
  before(async () => {
    d = await startDashboard()
    // A small help site on 127.0.0.1 for the crawler (private networks are allowed in tests).
    site = createServer((req, res) => {
      const pages: Record<string, string> = {
        '/help/': '<html><head><title>Help centre</title></head><body><main><h1>Help centre</h1><p>Read about <a href="/help/shipping">shipping times</a>.</p></main></body></html>',
        '/help/shipping': '<html><head><title>Shipping times</title></head><body><main><h1>Shipping times</h1><p>Parcels to Norway take four working days by courier.</p></main></body></html>',
      }
      const page = pages[req.url ?? '']
      res.writeHead(page ? 200 : 404, { 'content-type': page ? 'text/html; charset=utf-8' : 'text/plain' })
      res.end(page ?? 'not found')
    })
    await new Promise<void>((r) => site.listen(0, '127.0.0.1', r))
  })
  after(async () => {
    await d?.close()
    await new Promise<void>((r) => (site ? site.close(() => r()) : r()))
  })

  it('creates a base, uploads a document with a progress bar, sees it become ready, then finds it with a citation', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/knowledge/bases')
    await page.getByText('No knowledge bases yet').waitFor()
    await page.getByLabel('Name').fill('Help articles')
    await page.getByLabel('Description').fill('What support answers from')
    await page.getByRole('button', { name: 'Create base' }).click()
    await page.getByRole('status').filter({ hasText: 'Created Help articles' }).waitFor()
    await page.getByRole('table', { name: 'Knowledge bases' }).getByRole('link', { name: 'Help articles' }).waitFor()
    await checkA11y(page, 'knowledge bases')
    await assertFitsPhone(page, 'knowledge bases')

    await page.getByRole('table', { name: 'Knowledge bases' }).getByRole('link', { name: 'Help articles' }).click()
    await page.getByRole('heading', { name: 'Help articles', level: 1 }).waitFor()
    await page.getByText('No documents').waitFor()
    await page.getByLabel('File').setInputFiles({ name: 'refunds.md', mimeType: 'text/markdown', buffer: Buffer.from(REFUNDS) })
    await page.getByLabel('Title').fill('Refund policy')
    await page.getByRole('button', { name: 'Upload' }).click()
    const progress = page.getByLabel('Upload progress')
    await progress.waitFor()
    await page.getByRole('status').filter({ hasText: '“Refund policy” is ready' }).waitFor()
    assert.equal(await progress.getAttribute('value'), '100')
    assert.equal(await progress.getAttribute('max'), '100')
    const row = page.getByRole('table', { name: 'Documents' }).getByRole('row', { name: /Refund policy/ })
    await row.getByText('ready').waitFor()
    await row.getByText('markdown').waitFor()
    await checkA11y(page, 'knowledge base')
    await assertFitsPhone(page, 'knowledge base')
    await screenshot(page, 'knowledge')

    await page.getByRole('navigation', { name: 'Knowledge' }).getByRole('link', { name: 'Search' }).click()
    await page.getByLabel('Question').fill('How do I get my money refunded?')
    await page.getByLabel('Knowledge base').selectOption({ label: 'Help articles' })
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    const first = page.getByRole('listitem').filter({ hasText: '[1] Refund policy' })
    await first.waitFor()
    await first.getByText(/score 0\.\d\d|score 1\.00/).waitFor()
    assert.ok((await first.locator('mark').count()) > 0, 'matched words are marked')
    await first.getByText(/within 30 days of delivery/).waitFor()
    const source = first.getByRole('link', { name: /^Source: Refund policy in Help articles/ })
    assert.match((await source.getAttribute('href')) ?? '', /^\/dashboard\/knowledge\/bases\/kb_/)
    await page.getByRole('heading', { name: /^Answer/ }).waitFor()
    await checkA11y(page, 'knowledge search')
    await assertFitsPhone(page, 'knowledge search')
    await screenshot(page, 'knowledge-search')

    // A question nothing answers is recorded as a gap.
    await page.getByLabel('Question').fill('Do you ship pineapples to Antarctica?')
    await page.getByRole('button', { name: 'Search', exact: true }).click()
    await page.getByRole('status').filter({ hasText: 'recorded as a knowledge gap' }).waitFor()
    await page.getByRole('navigation', { name: 'Knowledge' }).getByRole('link', { name: 'Gaps' }).click()
    await page
      .getByRole('table', { name: 'Knowledge gaps' })
      .getByRole('row', { name: /Do you ship pineapples to Antarctica\?/ })
      .waitFor()
    await checkA11y(page, 'knowledge gaps')
    await assertFitsPhone(page, 'knowledge gaps')
    d.clean(page)
  })

  it('crawls a website into a base and shows the crawl progress until it completes', async () => {
    const res = await d.h.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Website' } })
    const base = JSON.parse(res.body)
    const page = await d.open()
    await d.signIn(page, `/dashboard/knowledge/bases/${base.id}`)
    await page.getByRole('heading', { name: 'Website', level: 1 }).waitFor()
    await page.getByLabel('Website URL').fill(`http://127.0.0.1:${(site.address() as AddressInfo).port}/help/`)
    await page.getByRole('button', { name: 'Start crawl' }).click()
    await page.getByLabel('Crawl progress').waitFor()
    await page.getByRole('status').filter({ hasText: 'Crawl completed.' }).waitFor()
    await page.getByText('2 indexed, 0 unchanged').waitFor()
    const docs = page.getByRole('table', { name: 'Documents' })
    await docs.getByRole('row', { name: /Shipping times.*ready/ }).waitFor()
    assert.match((await docs.getByRole('link', { name: 'Shipping times' }).getAttribute('href')) ?? '', /\/help\/shipping$/)
    await checkA11y(page, 'knowledge crawl')
    d.clean(page)
  })
})
