import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json } from '../../test/helpers.js'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const DEV = '/dashboard/developers'

describe('dashboard developers in Chromium: editing and deleting endpoints, sandboxes, Terraform, SDKs', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
  })
  after(() => d?.close())

  it('edits a webhook endpoint (read back through the API), then deletes it after confirming', async () => {
    const made = json(await d.h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/hooks', description: 'Before', event_types: ['*'] } }))
    const page = await d.open()
    await d.signIn(page, `${DEV}/webhooks/${made.id}`)
    await page.getByRole('heading', { name: 'https://example.com/hooks' }).waitFor()

    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    const dialog = page.getByRole('dialog', { name: 'Edit the endpoint' })
    assert.equal(await dialog.getByLabel('Description').inputValue(), 'Before')
    await dialog.getByLabel('URL').fill('https://example.com/hooks/v2')
    await dialog.getByLabel('Description').fill('After')
    await dialog.getByLabel('Event types').fill('webhook.test, lead.created')
    await dialog.getByLabel('Metadata').fill('team=support\ncost-center=42')
    await checkA11y(page, 'edit endpoint dialog')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await page.getByText('Endpoint saved.').waitFor()
    await page.getByRole('heading', { name: 'https://example.com/hooks/v2' }).waitFor()
    const read = json(await d.h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${made.id}` }))
    assert.equal(read.url, 'https://example.com/hooks/v2')
    assert.equal(read.description, 'After')
    assert.deepEqual(read.event_types, ['webhook.test', 'lead.created'])
    assert.deepEqual(read.metadata, { team: 'support', 'cost-center': '42' })
    await page.getByText('cost-center=42').waitFor()

    // A refused change shows the API's problem in the dialog and changes nothing.
    await page.getByRole('button', { name: 'Edit', exact: true }).click()
    await dialog.getByLabel('Event types').fill('no.such_event')
    await dialog.getByRole('button', { name: 'Save changes' }).click()
    await dialog.getByRole('alert').waitFor()
    assert.deepEqual(json(await d.h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${made.id}` })).event_types, ['webhook.test', 'lead.created'])
    await dialog.getByRole('button', { name: 'Cancel' }).click()

    // Delete asks first; Cancel keeps it.
    await page.getByRole('button', { name: 'Delete endpoint' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete this endpoint?' })
    await checkA11y(page, 'delete endpoint dialog')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    assert.equal((await d.h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${made.id}` })).statusCode, 200)
    await page.getByRole('button', { name: 'Delete endpoint' }).click()
    await confirm.getByRole('button', { name: 'Delete endpoint' }).click()
    await page.waitForURL((u) => u.pathname === `${DEV}/webhooks`)
    await page.getByText('Endpoint https://example.com/hooks/v2 deleted.').waitFor()
    await page.getByText('No webhook endpoints yet').waitFor()
    assert.equal((await d.h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${made.id}` })).statusCode, 404)
    d.clean(page)
  })
})
