import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard agents in Chromium: runs, step timeline, approvals', { skip }, () => {
  let d: Dashboard
  let tool: Server
  const calls: string[] = []
  let agentId = ''
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await d.h.request({ method, url: `/v2${url}`, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  /** Starts a run and waits (through the API) until it stops for a person. */
  const waitingRun = async (input: string) => {
    const run = await api('POST', `/agents/${agentId}/runs`, { input })
    for (const until = Date.now() + 20_000; Date.now() < until; await new Promise((r) => setTimeout(r, 50))) {
      const r = await api('GET', `/agents/${agentId}/runs/${run.id}`)
      if (r.status === 'requires_approval') return r
      assert.ok(['queued', 'running'].includes(r.status), `run ended ${r.status}: ${JSON.stringify(r.steps)}`)
    }
    assert.fail('the run never asked for an approval')
  }
  before(async () => {
    d = await startDashboard()
    // The shop's refund API: a real HTTP server on 127.0.0.1 the agent's tool calls.
    tool = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        calls.push(body)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ status: 'refunded' }))
      })
    })
    await new Promise<void>((r) => tool.listen(0, '127.0.0.1', r))
    const agent = await api('POST', '/agents', {
      name: 'Refund agent',
      description: 'Refunds orders; a person approves refunds above 100.',
      tools: [
        {
          type: 'http',
          name: 'refund_order',
          description: 'Refund an order: the amount goes back to the customer.',
          url: `http://127.0.0.1:${(tool.address() as AddressInfo).port}/refunds`,
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
    await new Promise<void>((r) => (tool ? tool.close(() => r()) : r()))
  })

  it('approves a pending tool call in the browser, and the run completes: the timeline shows every step', async () => {
    const run = await waitingRun('Please refund order ord_900, amount 250')
    assert.equal(calls.length, 0, 'nothing is sent before the approval')
    const page = await d.open()
    await d.signIn(page, '/dashboard/agents')
    await page.getByRole('link', { name: 'Refund agent', exact: true }).waitFor()
    await checkA11y(page, 'agents')
    await assertFitsPhone(page, 'agents')

    await page.getByRole('link', { name: 'Refund agent', exact: true }).click()
    await page.getByRole('link', { name: run.id }).waitFor()
    await page.getByRole('row', { name: new RegExp(`${run.id}.*requires approval`) }).waitFor()
    await checkA11y(page, 'agent runs')
    await assertFitsPhone(page, 'agent runs')

    await page.getByRole('navigation', { name: 'Agent' }).getByRole('link', { name: 'Approvals' }).click()
    const item = page.getByRole('listitem').filter({ hasText: run.id })
    await item.getByText('refund_order').first().waitFor()
    assert.match(await item.getByLabel('Arguments (JSON)').inputValue(), /"order_id": "ord_900"/)
    await checkA11y(page, 'agent approvals')
    await assertFitsPhone(page, 'agent approvals')
    await screenshot(page, 'agents-approvals')
    await item.getByLabel('Comment (optional)').fill('refund ok')
    await item.getByRole('button', { name: 'Approve' }).click()
    // The page follows the run until it leaves running.
    const follow = page.getByRole('status').filter({ hasText: run.id })
    await follow.getByText('succeeded').waitFor()
    assert.equal(calls.length, 1, 'the tool was called once')
    assert.deepEqual(JSON.parse(calls[0]!), { order_id: 'ord_900', amount: 250 })
    await page.getByText('Nothing waits for a decision').waitFor()

    await follow.getByRole('link', { name: run.id }).click()
    const steps = page.getByRole('list', { name: 'Steps' })
    await steps.getByRole('heading', { name: /^5\. Message/ }).waitFor()
    const headings = await steps.getByRole('heading').allTextContents()
    assert.deepEqual(
      headings.map((h) => h.replace(/\s+(started|completed|failed)$/, '')),
      ['1. Reasoning', '2. Approval refund_order', '3. Tool call refund_order', '4. Tool result refund_order', '5. Message'],
    )
    await steps.getByRole('listitem').nth(2).getByText('"amount": 250').waitFor()
    await steps.getByRole('listitem').nth(3).getByText('refunded').first().waitFor()
    await page.getByTestId('run-status').getByText('succeeded').waitFor()
    await checkA11y(page, 'agent run')
    await screenshot(page, 'agents-run')
    d.clean(page)
  })

  it('rejects from the run page with a comment: no call is made and the run goes on knowing why', async () => {
    const run = await waitingRun('Refund order ord_901, amount 999')
    const before = calls.length
    const page = await d.open()
    await d.signIn(page, `/dashboard/agents/${agentId}/runs/${run.id}`)
    await page.getByRole('heading', { name: 'Waiting for your approval' }).waitFor()
    await page.getByLabel('Comment (optional)').fill('too much for one order')
    await page.getByRole('button', { name: 'Reject' }).click()
    await page.getByRole('status').filter({ hasText: 'Rejected' }).waitFor()
    await page.getByTestId('run-status').getByText('succeeded').waitFor()
    const result = page.getByRole('list', { name: 'Steps' }).getByRole('listitem').filter({ hasText: 'Tool result' })
    await result.getByText('approval_rejected').waitFor()
    await result.getByText(/too much for one order/).waitFor()
    assert.equal(calls.length, before, 'a rejected call is never sent')
    await checkA11y(page, 'agent run rejected')
    d.clean(page)
  })
})
