import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard: API keys in Chromium', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
  })
  after(() => d?.close())

  it('creates a key with chosen scopes, shown once, which then works with fetch; revoking stops it; the audit log names the member', async () => {
    const page = await d.open()
    page.on('dialog', (dialog) => void dialog.accept())
    await d.signIn(page, '/dashboard/developers/keys')
    await page.getByRole('heading', { name: 'API keys' }).waitFor()
    await checkA11y(page, 'API keys')
    await assertFitsPhone(page, 'API keys')
    await page.getByRole('button', { name: 'Create key' }).click()
    await page.getByLabel('Name').fill('Dashboard e2e')
    await page.getByRole('checkbox', { name: 'read', exact: true }).uncheck()
    await page.getByRole('checkbox', { name: 'conversations:read' }).check()
    await checkA11y(page, 'create key dialog')
    await page.getByRole('dialog').getByRole('button', { name: 'Create key' }).click()
    const secret = (await page.getByTestId('secret-value').textContent())!.trim()
    assert.match(secret, /^svc_live_/)
    await screenshot(page, 'developers-keys-created')

    // curl-equivalent: the key straight from the page, used by another client.
    const used = await fetch(`${d.url}/v2/inbox/conversations`, { headers: { authorization: `Bearer ${secret}` } })
    assert.equal(used.status, 200)
    const refused = await fetch(`${d.url}/v2/bots`, { headers: { authorization: `Bearer ${secret}` } })
    assert.equal(refused.status, 403, 'only the chosen scopes')

    await page.getByRole('button', { name: 'Done' }).click()
    assert.equal(await page.getByText(secret).count(), 0, 'the key is never shown again')
    const row = page.getByRole('row', { name: /Dashboard e2e/ })
    await row.waitFor()
    await screenshot(page, 'developers-keys')
    await row.getByRole('button', { name: /Revoke/ }).click()
    await row.getByText('revoked').waitFor()
    const after = await fetch(`${d.url}/v2/inbox/conversations`, { headers: { authorization: `Bearer ${secret}` } })
    assert.equal(after.status, 401)

    const audit = JSON.parse((await d.h.request({ method: 'GET', url: '/v2/compliance/audit-log?limit=100' })).body)
    const created = audit.data.find((e: any) => e.action === 'createApiKey')
    assert.ok(created, 'createApiKey is in the audit log')
    assert.match(JSON.stringify(created), /"member"/, 'done by the signed-in member')
    d.clean(page)
  })
})
