import assert from 'node:assert/strict'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard agents in Chromium: create, edit, start a run, approve with edited arguments', { skip }, () => {
  let d: Dashboard
  let tool: Server
  let toolUrl = ''
  const calls: string[] = []
  const api = async (method: 'GET' | 'POST', url: string, payload?: object) => {
    const res = await d.h.request({ method, url: `/v2${url}`, ...(payload ? { payload } : {}) })
    assert.ok(res.statusCode < 300, `${method} ${url}: ${res.statusCode} ${res.body}`)
    return JSON.parse(res.body)
  }
  const agentNamed = async (name: string) => (await api('GET', '/agents?limit=100')).data.find((a: { name: string }) => a.name === name)
  before(async () => {
    d = await startDashboard()
    tool = createServer((req, res) => {
      let body = ''
      req.on('data', (c) => (body += c))
      req.on('end', () => {
        calls.push(body)
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end(JSON.stringify({ status: 'done' }))
      })
    })
    await new Promise<void>((r) => tool.listen(0, '127.0.0.1', r))
    toolUrl = `http://127.0.0.1:${(tool.address() as AddressInfo).port}/calls`
  })
  after(async () => {
    await d?.close()
    await new Promise<void>((r) => (tool ? tool.close(() => r()) : r()))
  })

  it('creates an agent with a tool and its approval rule; bad JSON is caught before sending, the API refuses a bad name', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/agents')
    await page.getByRole('link', { name: 'New agent' }).click()
    await page.getByRole('heading', { name: 'New agent' }).waitFor()
    await page.getByLabel('Name', { exact: true }).fill('Booking agent')
    await page.getByLabel('Description', { exact: true }).fill('Books tables; a person approves big parties.')
    await page.getByLabel('Instructions').fill('Book the table the customer asks for.')
    await page.getByLabel('Max steps').fill('5')
    await page.getByRole('button', { name: 'Add a tool' }).click()
    await page.getByLabel('Tool 1 name').fill('Book Table')
    await page.getByLabel('Tool 1 description').fill('Book a table at the restaurant for a party')
    await page.getByLabel('Tool 1 URL').fill(toolUrl)
    await page.getByLabel('Tool 1 parameters (JSON Schema)').fill('{"type": "object", "properties": {')
    await page.getByLabel('Tool 1 approval', { exact: true }).selectOption('when')
    await page.getByLabel('Tool 1 approval argument').fill('party_size')
    await page.getByLabel('Tool 1 approval operator').selectOption('gt')
    await page.getByLabel('Tool 1 approval value').fill('6')
    await checkA11y(page, 'new agent')
    await assertFitsPhone(page, 'new agent')

    await page.getByRole('button', { name: 'Create agent' }).click()
    await page.getByRole('alert').filter({ hasText: '/tools/0/parameters' }).getByText('is not valid JSON').waitFor()
    assert.equal(await agentNamed('Booking agent'), undefined, 'nothing was sent')

    await page.getByLabel('Tool 1 parameters (JSON Schema)').fill('{"type": "object", "properties": {"party_size": {"type": "number"}}, "required": ["party_size"]}')
    await page.getByRole('button', { name: 'Create agent' }).click()
    await page.getByRole('alert').locator('code', { hasText: '/body/tools/0/name' }).first().waitFor()
    assert.equal(await agentNamed('Booking agent'), undefined, 'the API refused it')

    await page.getByLabel('Tool 1 name').fill('book_table')
    await page.getByRole('button', { name: 'Create agent' }).click()
    const dialog = page.getByRole('dialog', { name: 'Agent created' })
    const secret = (await dialog.getByTestId('secret-value').textContent()) ?? ''
    assert.ok(secret.length > 10, 'the signing secret is shown once')
    await checkA11y(page, 'agent created')
    await dialog.getByRole('button', { name: 'Close' }).click()
    await page.getByRole('heading', { name: 'Booking agent' }).waitFor()

    const agent = await agentNamed('Booking agent')
    assert.equal(agent.description, 'Books tables; a person approves big parties.')
    assert.equal(agent.instructions, 'Book the table the customer asks for.')
    assert.equal(agent.max_steps, 5)
    assert.equal(agent.tools.length, 1)
    assert.equal(agent.tools[0].name, 'book_table')
    assert.equal(agent.tools[0].url, toolUrl)
    assert.deepEqual(agent.tools[0].approval, { mode: 'when', when: { argument: 'party_size', operator: 'gt', value: 6 } })
    d.clean(page)
  })

  it("edits an agent's settings: the API's field errors show, then the change is saved and the tool keeps its id", async () => {
    const before = await agentNamed('Booking agent')
    const page = await d.open()
    await d.signIn(page, `/dashboard/agents/${before.id}/edit`)
    await page.getByRole('heading', { name: 'Settings · Booking agent' }).waitFor()
    // Only the tab of this page is current (the longest link the path is under, not every prefix).
    const tabs = page.getByRole('navigation', { name: 'Agent' })
    assert.equal(await tabs.getByRole('link', { name: 'Settings' }).getAttribute('aria-current'), 'page')
    assert.equal(await tabs.getByRole('link', { name: 'Runs' }).getAttribute('aria-current'), null)
    assert.equal(await page.getByLabel('Tool 1 approval argument').inputValue(), 'party_size')
    await page.getByLabel('Name', { exact: true }).fill('Booking agent v2')
    await page.getByLabel('Status', { exact: true }).selectOption('disabled')
    await page.getByLabel('Tool 1 approval', { exact: true }).selectOption('always')
    await page.getByLabel('Temperature').fill('0.2')
    await page.getByLabel('Max steps').fill('99')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('alert').locator('code', { hasText: '/body/max_steps' }).first().waitFor()
    assert.equal((await api('GET', `/agents/${before.id}`)).name, 'Booking agent', 'nothing changed')

    await page.getByLabel('Max steps').fill('7')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    await checkA11y(page, 'agent settings')
    await assertFitsPhone(page, 'agent settings')
    await screenshot(page, 'agents-edit')
    const after = await api('GET', `/agents/${before.id}`)
    assert.equal(after.name, 'Booking agent v2')
    assert.equal(after.status, 'disabled')
    assert.equal(after.max_steps, 7)
    assert.equal(after.ai.temperature, 0.2)
    assert.deepEqual(after.tools[0].approval, { mode: 'always' })
    assert.equal(after.tools[0].id, before.tools[0].id, 'a tool whose name stays keeps its id')
    d.clean(page)
  })

  it("shows a built-in tool's parameters when editing, and an untouched field keeps them", async () => {
    const created = await api('POST', '/agents', { name: 'Knowledge helper', instructions: 'Answer from the knowledge base.', tools: [{ type: 'builtin', name: 'search_knowledge' }] })
    const stored = created.tools[0].parameters
    assert.ok(Object.keys(stored.properties ?? {}).length > 0, 'the built-in has parameters of its own')
    const page = await d.open()
    await d.signIn(page, `/dashboard/agents/${created.id}/edit`)
    await page.getByRole('heading', { name: 'Settings · Knowledge helper' }).waitFor()
    assert.equal(await page.getByLabel('Tool 1 parameters (JSON Schema)').inputValue(), '', 'nothing to send back')
    await page.getByText("Tool 1's parameters now").click()
    const shown = JSON.parse((await page.locator('.stored-parameters pre').textContent()) ?? '')
    assert.deepEqual(shown, stored)
    await checkA11y(page, 'agent settings with a built-in tool')
    await page.getByLabel('Name', { exact: true }).fill('Knowledge helper v2')
    await page.getByRole('button', { name: 'Save changes' }).click()
    await page.getByRole('status').filter({ hasText: 'Saved.' }).waitFor()
    const after = await api('GET', `/agents/${created.id}`)
    assert.equal(after.name, 'Knowledge helper v2')
    assert.deepEqual(after.tools[0].parameters, stored)
    d.clean(page)
  })

  it('starts a run from the agent page, and approves its call with edited arguments checked as JSON and by the API', async () => {
    const agent = await api('POST', '/agents', {
      name: 'Refunds',
      tools: [
        {
          type: 'http',
          name: 'refund_order',
          description: 'Refund an order: the amount goes back to the customer.',
          url: toolUrl,
          method: 'POST',
          parameters: { type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' }, amount: { type: 'number' } }, required: ['order_id', 'amount'] },
          approval: { mode: 'always' },
        },
      ],
    })
    const page = await d.open()
    await d.signIn(page, `/dashboard/agents/${agent.id}`)
    await page.getByLabel('Input', { exact: true }).fill('Please refund order ord_900, amount 250')
    await page.getByRole('button', { name: 'Start run' }).click()
    await page.getByRole('status').filter({ hasText: 'queued' }).waitFor()
    const runs = (await api('GET', `/agents/${agent.id}/runs`)).data
    assert.equal(runs.length, 1)
    assert.equal(runs[0].input.text, 'Please refund order ord_900, amount 250')
    for (const until = Date.now() + 20_000; ; await new Promise((r) => setTimeout(r, 50))) {
      const r = await api('GET', `/agents/${agent.id}/runs/${runs[0].id}`)
      if (r.status === 'requires_approval') break
      assert.ok(Date.now() < until && ['queued', 'running'].includes(r.status), `run is ${r.status}`)
    }

    await page.goto(`/dashboard/agents/${agent.id}/approvals`)
    const item = page.getByRole('listitem').filter({ hasText: runs[0].id })
    const args = item.getByLabel('Arguments (JSON)')
    assert.deepEqual(JSON.parse(await args.inputValue()), { order_id: 'ord_900', amount: 250 })
    await checkA11y(page, 'approval with arguments')
    await args.fill('{"order_id": "ord_900", "amount": ')
    await item.getByRole('button', { name: 'Approve' }).click()
    await item.getByRole('alert').getByText('is not valid JSON').waitFor()
    await args.fill('{"order_id": "refund-everything", "amount": 120}')
    await item.getByRole('button', { name: 'Approve' }).click()
    await item
      .getByRole('alert')
      .getByText(/\/body\/arguments/)
      .first()
      .waitFor()
    assert.equal(calls.length, 0, 'nothing is sent before an approval the API accepts')
    assert.equal((await api('GET', `/agents/${agent.id}/approvals?status=pending`)).data.length, 1, 'still pending')

    await args.fill('{"order_id": "ord_900", "amount": 120}')
    await item.getByRole('button', { name: 'Approve' }).click()
    await page.getByRole('status').filter({ hasText: runs[0].id }).getByText('succeeded').waitFor()
    assert.deepEqual(
      calls.map((c) => JSON.parse(c)),
      [{ order_id: 'ord_900', amount: 120 }],
    )
    const approved = (await api('GET', `/agents/${agent.id}/approvals?status=approved`)).data
    assert.deepEqual(approved[0].edited_arguments, { order_id: 'ord_900', amount: 120 })
    d.clean(page)
  })
})
