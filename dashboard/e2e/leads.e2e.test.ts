import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard leads in Chromium: list with filters, score factors, activities, status, CRM sync', { skip }, () => {
  let d: Dashboard
  let crm: Server
  const received: string[] = []
  const api = async (method: 'GET' | 'POST' | 'PATCH', url: string, payload?: object) => {
    const res = await d.h.request({ method, url: `/v2${url}`, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  before(async () => {
    d = await startDashboard()
    // A webhook CRM: a real HTTP server on 127.0.0.1 that records the leads it is sent.
    crm = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push(body)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ id: 'crm_contact_42' }))
      })
    })
    await new Promise<void>((r) => crm.listen(0, '127.0.0.1', r))
    await api('PATCH', `/workspaces/${d.h.a.workspaceId}`, {
      crm: { provider: 'webhook', url: `http://127.0.0.1:${(crm.address() as AddressInfo).port}/leads`, signing_secret: 'whsec_dashboard_leads_test' },
    })
  })
  after(async () => {
    await d?.close()
    await new Promise<void>((r) => (crm ? crm.close(() => r()) : r()))
  })

  it('lists leads, filters by status and score, and loads more', async () => {
    for (let i = 0; i < 22; i++) await api('POST', '/leads', { name: `Filler ${i}`, email: `filler${i}@example.com` })
    const hot = await api('POST', '/leads', { name: 'Ada Lovelace', email: 'ada@engines.example', company: 'Engines', title: 'CTO' })
    await api('POST', `/leads/${hot.id}/status`, { status: 'contacted', reason: 'called back' })
    const page = await d.open()
    await d.signIn(page, '/dashboard/leads')
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor()
    // 20 a page: the rest come with Load more.
    assert.equal(await page.getByRole('table', { name: 'Leads' }).getByRole('row').count(), 21)
    await page.getByRole('button', { name: 'Load more' }).click()
    await page.getByRole('link', { name: 'Filler 0', exact: true }).waitFor()
    await checkA11y(page, 'leads')
    await assertFitsPhone(page, 'leads')
    await screenshot(page, 'leads')

    await page.getByLabel('Status').selectOption('contacted')
    await page.getByLabel('Min score').fill('40')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByRole('link', { name: 'Filler 1', exact: true }).waitFor({ state: 'detached' })
    assert.equal(await page.getByRole('table', { name: 'Leads' }).getByRole('row').count(), 2)
    await page.getByRole('link', { name: 'Ada Lovelace' }).waitFor()

    await page.getByLabel('Status').selectOption('lost')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByText('No leads match').waitFor()
    d.clean(page)
  })

  it("shows a lead's score factors and activities, changes its status, and syncs it to the CRM", async () => {
    const lead = await api('POST', '/leads', { name: 'Grace Hopper', email: 'grace@navy.example', company: 'Navy', title: 'Director of Engineering' })
    await api('POST', `/leads/${lead.id}/activities`, { type: 'call', subject: 'Discovery call', body: 'Wants a demo next week' })
    const page = await d.open()
    await d.signIn(page, `/dashboard/leads/${lead.id}`)
    await page.getByRole('heading', { name: 'Grace Hopper' }).waitFor()
    const factors = page.getByRole('region', { name: 'Score factors' })
    await factors.getByRole('row', { name: /company given \(Navy\)\s*\+10/ }).waitFor()
    await factors.getByRole('row', { name: /gave an email address\s*\+20/ }).waitFor()
    await factors.getByRole('row', { name: /title is a decision maker.*\+10/ }).waitFor()
    await factors.getByRole('row', { name: /1 recorded engagement.*\+5/ }).waitFor()
    const activities = page.getByRole('list', { name: 'Activities, newest first' })
    await activities.getByText('Discovery call').waitFor()
    await activities.getByText('Wants a demo next week').waitFor()

    // Status: only the machine's moves are offered; the change is announced and recorded as an activity.
    const moveTo = page.getByLabel('Move to')
    assert.deepEqual(await moveTo.locator('option').allTextContents(), ['Choose…', 'contacted', 'qualified', 'unqualified', 'lost'])
    await moveTo.selectOption('qualified')
    await page.getByLabel('Reason (optional)').fill('budget confirmed')
    await page.getByRole('button', { name: 'Change status' }).click()
    await page.getByRole('status').filter({ hasText: 'Status changed from new to qualified.' }).waitFor()
    await activities.getByText('new → qualified').waitFor()

    // CRM sync: queued, then the page follows the lead until the job has sent it to the receiver.
    await page.getByRole('button', { name: 'Sync now' }).click()
    await page.getByRole('status').filter({ hasText: 'Synced to the CRM.' }).waitFor()
    await page.getByText('crm_contact_42').first().waitFor()
    assert.ok(
      received.some((b) => b.includes('grace@navy.example')),
      'the CRM received the lead',
    )
    await activities.getByText(/crm_contact_42/).waitFor()
    await checkA11y(page, 'lead detail')
    await screenshot(page, 'lead-detail')
    d.clean(page)
  })
})
