import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { after, before, describe, it } from 'node:test'
import { json } from './server.js'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const DEV = '/dashboard/developers'
/** The HCL export's header says when it was made: compare two exports without it. */
const undated = (hcl: string) => hcl.replace(/^# generated .*$/m, '')

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

  it('creates a sandbox workspace: its test key shown once works on the sandbox API; seeding is followed to ready', async () => {
    const page = await d.open()
    await d.signIn(page, `${DEV}/sandboxes`)
    await page.getByRole('heading', { name: 'Sandbox workspaces' }).waitFor()
    await page.getByText('No sandbox workspaces yet').waitFor()
    await checkA11y(page, 'sandboxes (empty)')
    await page.getByRole('button', { name: 'Create a sandbox' }).click()
    const dialog = page.getByRole('dialog', { name: 'Create a sandbox workspace' })
    await dialog.getByLabel('Name').fill('E2E sandbox')
    await dialog.getByRole('button', { name: 'Create sandbox' }).click()
    const created = page.getByRole('dialog', { name: 'Sandbox created' })
    const key = ((await created.getByTestId('secret-value').textContent()) ?? '').trim()
    assert.match(key, /^svc_test_/)
    await created.getByText(`${d.url}/sandbox/v2`, { exact: true }).waitFor()
    await checkA11y(page, 'sandbox created')

    const listed = json(await d.h.request({ method: 'GET', url: '/v2/sandbox-workspaces' })).data
    assert.equal(listed.length, 1)
    assert.equal(listed[0].name, 'E2E sandbox')
    assert.ok(key.startsWith(listed[0].api_key.prefix))
    // The key from the page works on the sandbox's own workspace.
    const used = await fetch(`${d.url}/sandbox/v2/workspaces/current`, { headers: { authorization: `Bearer ${key}` } })
    assert.equal(used.status, 200)
    assert.equal((await used.json()).id, listed[0].workspace_id)

    await created.getByRole('button', { name: 'Done' }).click()
    assert.equal(await page.getByText(key).count(), 0, 'the key is never shown again')
    const row = page.getByRole('row').filter({ hasText: 'E2E sandbox' })
    await row.getByText('ready', { exact: true }).waitFor({ timeout: 30_000 })
    await row.getByText(/3 conversations/).waitFor()
    assert.equal(json(await d.h.request({ method: 'GET', url: '/v2/sandbox-workspaces' })).data[0].status, 'ready')
    await checkA11y(page, 'sandboxes')
    await screenshot(page, 'developers-sandboxes')
    await assertFitsPhone(page, 'sandboxes')
    d.clean(page)
  })

  it('shows the Terraform resource types and the workspace as configuration, filtered by type, to copy or download', async () => {
    const ep = json(await d.h.request({ method: 'POST', url: '/v2/webhooks/endpoints', payload: { url: 'https://example.com/tf', description: 'Terraform e2e' } }))
    const hcl = (await d.h.request({ method: 'GET', url: '/v2/terraform-resources?format=hcl' })).body
    assert.ok(hcl.includes(ep.id))
    const page = await d.open()
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write'])
    await d.signIn(page, `${DEV}/terraform`)
    await page.getByRole('heading', { name: 'Terraform', exact: true }).waitFor()
    const types = page.getByRole('table', { name: 'Terraform resource types' })
    await types.getByText('svc_webhook_endpoint', { exact: true }).waitFor()
    await types.getByText('createWebhookEndpoint', { exact: false }).waitFor()
    const config = page.getByTestId('terraform-hcl')
    await config.getByText(ep.id, { exact: false }).waitFor()
    const shown = (await config.textContent()) ?? ''
    assert.equal(undated(shown), undated(hcl), 'the configuration as the API gives it')
    await page.locator('summary').filter({ hasText: 'Attributes of svc_webhook_endpoint' }).click()
    await page.getByRole('table', { name: 'Attributes of svc_webhook_endpoint' }).getByText('event_types', { exact: true }).waitFor()
    await checkA11y(page, 'terraform')
    await screenshot(page, 'developers-terraform')
    await assertFitsPhone(page, 'terraform')

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download workspace.tf' }).click()])
    assert.equal(download.suggestedFilename(), 'workspace.tf')
    assert.equal(await readFile((await download.path())!, 'utf8'), shown)
    await page.getByRole('button', { name: 'Copy configuration' }).click()
    await page.getByRole('button', { name: /Copied/ }).waitFor()
    assert.equal(await page.evaluate(() => navigator.clipboard.readText()), shown)

    // One type only: the endpoint is not in the bots' configuration.
    await page.getByLabel('Resource type', { exact: true }).selectOption('svc_bot')
    await page.getByRole('button', { name: 'Download svc_bot.tf' }).waitFor()
    const bots = (await d.h.request({ method: 'GET', url: '/v2/terraform-resources?format=hcl&type=svc_bot' })).body
    assert.ok(!bots.includes(ep.id))
    await page.waitForFunction((id) => {
      const t = document.querySelector('[data-testid="terraform-hcl"]')?.textContent ?? ''
      return t.includes('svc_bot') && !t.includes(id)
    }, ep.id)
    assert.equal(undated((await config.textContent()) ?? ''), undated(bots))
    d.clean(page)
  })

  it('generates an SDK, follows it to succeeded and downloads the archive the API lists', async () => {
    const page = await d.open()
    await d.signIn(page, `${DEV}/sdks`)
    await page.getByRole('heading', { name: 'SDK generation' }).waitFor()
    await page.getByText('No SDKs generated yet').waitFor()
    await checkA11y(page, 'SDK generation (empty)')
    // A version the registry would refuse: the API's problem, nothing queued.
    await page.getByLabel('Language').selectOption('node')
    await page.getByLabel('Package name').fill('@acme/svc-client')
    await page.getByLabel('Version').fill('not a version')
    await page.getByRole('button', { name: 'Generate' }).click()
    await page.getByRole('alert').getByText('/body/version').waitFor()
    assert.equal(json(await d.h.request({ method: 'GET', url: '/v2/sdk-generations' })).data.length, 0)

    await page.getByLabel('Version').fill('1.2.3')
    await page.getByRole('button', { name: 'Generate' }).click()
    await page.getByText('Generating @acme/svc-client 1.2.3 (node): it is queued.').waitFor()
    const row = page.getByRole('row').filter({ hasText: '@acme/svc-client' })
    await row.getByText('succeeded', { exact: true }).waitFor({ timeout: 90_000 })
    const [g] = json(await d.h.request({ method: 'GET', url: '/v2/sdk-generations' })).data
    assert.deepEqual([g.language, g.package_name, g.version, g.status], ['node', '@acme/svc-client', '1.2.3', 'succeeded'])
    await checkA11y(page, 'SDK generation')
    await screenshot(page, 'developers-sdks')
    await assertFitsPhone(page, 'SDK generation')

    const [download] = await Promise.all([page.waitForEvent('download'), row.getByRole('button', { name: /Download/ }).click()])
    assert.equal(download.suggestedFilename(), g.archive.filename)
    const bytes = await readFile((await download.path())!)
    assert.equal(bytes.length, g.archive.size_bytes)
    assert.equal(createHash('sha256').update(bytes).digest('hex'), g.archive.sha256)
    d.clean(page)
  })
})
