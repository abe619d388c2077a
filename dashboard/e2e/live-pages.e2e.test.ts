import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

/** Issue 31: deliveries and approvals appear within a second of what made them (asserted after the action). */
const SECOND = { timeout: 1000 }
const live = (page: Page) => page.locator('.live-state[data-state="live"]').waitFor({ timeout: 15_000 })

describe('dashboard deliveries and approvals pages live in Chromium', { skip }, () => {
  let d: Dashboard
  let receiver: Server
  let agentId = ''
  const received: string[] = []
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await d.h.request({ method, url: `/v2${url}`, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  before(async () => {
    d = await startDashboard({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } })
    // A receiver on 127.0.0.1 (the webhook endpoint) that is also the agent's refund API.
    receiver = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        received.push(`${req.url} ${body}`)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ status: 'refunded' }))
      })
    })
    await new Promise<void>((r) => receiver.listen(0, '127.0.0.1', r))
    const base = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`
    // Live endpoints must use https: this one cannot answer TLS, so each attempt fails (and is retried later).
    await api('POST', '/webhooks/endpoints', { url: `${base.replace('http:', 'https:')}/hooks`, event_types: ['conversation.created'] })
    const agent = await api('POST', '/agents', {
      name: 'Refund agent',
      description: 'Refunds orders; a person approves refunds above 100.',
      tools: [
        {
          type: 'http',
          name: 'refund_order',
          description: 'Refund an order: the amount goes back to the customer.',
          url: `${base}/refunds`,
          method: 'POST',
          parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] },
          approval: { mode: 'when', when: { argument: 'amount', operator: 'gt', value: 100 } },
        },
      ],
    })
    agentId = agent.id
  })
  after(async () => {
    await d?.close()
    await new Promise<void>((r) => (receiver ? receiver.close(() => r()) : r()))
  })

  it('a delivery shows on the deliveries page as its event happens, and its attempts follow', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/developers/deliveries')
    await page.getByText('No deliveries yet').waitFor()
    await live(page)
    const conv = await api('POST', '/inbox/conversations', { channel: 'chat', contact: { name: 'Webhook Wendy' }, message: { content: 'Hi' } })
    const row = page.getByRole('row').filter({ hasText: 'conversation.created' })
    await row.waitFor(SECOND)
    // The attempt changes the delivery without an event: the page reads it again while it is pending.
    await row.getByRole('cell', { name: '1', exact: true }).waitFor({ timeout: 15_000 })
    const listed = await api('GET', '/webhooks/deliveries')
    assert.equal(listed.data.length, 1)
    assert.ok(listed.data[0].attempts_count >= 1)
    assert.ok(conv.id)
    await checkA11y(page, 'deliveries, live')
    await screenshot(page, 'developers-deliveries-live')
    d.clean(page)
  })

  it('an approval appears as the run asks for it, and leaves the pending list when decided elsewhere', async () => {
    const page = await d.open()
    await d.signIn(page, `/dashboard/agents/${agentId}/approvals`)
    await page.getByText('Nothing waits for a decision').waitFor()
    await live(page)
    const run = await api('POST', `/agents/${agentId}/runs`, { input: 'Please refund order ord_900, amount 250' })
    // The run asks for the approval in the background: the moment it exists is when the API shows it.
    let approvalId = ''
    for (const until = Date.now() + 20_000; !approvalId && Date.now() < until; await new Promise((r) => setTimeout(r, 20))) {
      const list = await api('GET', `/agents/${agentId}/approvals?status=pending`)
      approvalId = list.data[0]?.id ?? ''
    }
    assert.ok(approvalId, 'the run asked for an approval')
    const item = page.getByRole('listitem').filter({ hasText: run.id })
    await item.getByText('refund_order').first().waitFor(SECOND)
    await checkA11y(page, 'approvals, live')

    await api('POST', `/agents/${agentId}/runs/${run.id}/approve`, { decision: 'reject', comment: 'decided by a colleague' })
    assert.equal(received.filter((r) => r.startsWith('/refunds')).length, 0)
    await item.waitFor({ state: 'detached', ...SECOND })
    await page.getByText('Nothing waits for a decision').waitFor(SECOND)
    d.clean(page)
  })
})
