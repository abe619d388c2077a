import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { memberWithPassword } from './server.js'
import { PASSWORD, skip, startDashboard, type Dashboard } from './harness.js'

// The dashboard offers a member (role member) only what the API lets them do (docs/api-conventions.md "Roles").
describe('dashboard in Chromium as a member: no action the API refuses by role', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
    await memberWithPassword(d.h, 'mia@example.com', PASSWORD, { role: 'member' })
  })
  after(() => d?.close())

  it('compliance: no audit log, data requests or evidence; retention read-only. Developers: no API keys or logs; endpoints without changes', async () => {
    const made = await d.h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://hooks.example.com/in' } })
    assert.equal(made.statusCode, 201, made.body)
    const page = await d.open()
    await d.signIn(page, '/dashboard/compliance', 'mia@example.com')
    await page.waitForURL(/\/dashboard\/compliance\/retention$/)
    await page.getByText('Only owners and admins change retention policies').waitFor()
    assert.equal(await page.getByRole('button', { name: 'Save policies' }).isDisabled(), true)
    const compliance = page.getByRole('navigation', { name: 'Compliance' })
    await compliance.getByRole('link', { name: 'Retention' }).waitFor()
    for (const name of ['Audit log', 'Data requests', 'Evidence']) assert.equal(await compliance.getByRole('link', { name }).count(), 0, name)

    await page.goto(`${d.url}/dashboard/developers`)
    await page.getByRole('heading', { name: 'Webhooks', level: 1 }).waitFor()
    const developers = page.getByRole('navigation', { name: 'Developers' })
    await developers.getByRole('link', { name: 'Webhooks' }).waitFor()
    for (const name of ['API keys', 'API logs']) assert.equal(await developers.getByRole('link', { name }).count(), 0, name)
    assert.equal(await page.getByRole('button', { name: 'New endpoint' }).count(), 0)
    await page.goto(`${d.url}/dashboard/developers/webhooks/${JSON.parse(made.body).id}`)
    await page.getByText('https://hooks.example.com/in').first().waitFor()
    assert.equal(await page.getByRole('button', { name: 'Delete endpoint' }).count(), 0)
    d.clean(page)
  })
})
