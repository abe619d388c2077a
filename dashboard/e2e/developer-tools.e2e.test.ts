import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { stringify } from 'safe-stable-stringify'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

/** Waits for `check` to pass, doing `between` (a click on Refresh) between tries: no fixed sleeps. */
async function until(check: () => Promise<boolean>, between: () => Promise<unknown>, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs
  for (;;) {
    if (await check()) return
    if (Date.now() > end) assert.fail('timed out waiting for the page to show the expected state')
    await between()
  }
}

const refreshUntilShown = (page: Page, text: string) =>
  until(
    () => page.getByText(text, { exact: true }).first().isVisible(),
    async () => {
      await page.getByRole('button', { name: 'Refresh' }).click()
      await page.getByRole('button', { name: 'Refresh' }).and(page.locator(':enabled')).waitFor()
    },
  )

describe('developer tools in Chromium: API logs, usage, OAuth apps, OpenAPI snapshots', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
    // Traffic for the logs and usage: two listBots, one refused createBot (422), one unknown path (404).
    const seeded = [
      await d.h.request({ method: 'GET', url: '/v2/bots', headers: { 'x-request-id': 'e2e-list-1' } }),
      await d.h.request({ method: 'GET', url: '/v2/bots', headers: { 'x-request-id': 'e2e-list-2' } }),
      await d.h.request({ method: 'POST', url: '/v2/bots', payload: { nope: true }, headers: { 'x-request-id': 'e2e-bad-create' } }),
      await d.h.request({ method: 'GET', url: '/v2/nowhere', headers: { 'x-request-id': 'e2e-not-found' } }),
    ]
    assert.deepEqual(
      seeded.map((r) => r.statusCode),
      [200, 200, 422, 404],
    )
  })
  after(() => d?.close())

  it('lists API requests newest first, filters them by status class and method, and opens one', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/developers/logs')
    await page.getByRole('heading', { name: 'API logs' }).waitFor()
    await refreshUntilShown(page, 'e2e-bad-create')
    await page.getByText('e2e-list-1', { exact: true }).waitFor()
    await checkA11y(page, 'API logs')
    await assertFitsPhone(page, 'API logs')
    await screenshot(page, 'developers-logs')

    // 4xx only: the refused create and the unknown path, no listBots.
    await page.getByLabel('Status').selectOption('4xx')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/status_class=4xx/)
    const table = page.getByRole('region', { name: 'API requests, newest first' })
    // The unfiltered rows stay until the filtered page replaces them (the URL changes first): wait for that.
    await until(
      async () => (await table.getByText('e2e-list-1', { exact: true }).count()) === 0,
      () => page.waitForTimeout(100),
    )
    await table.getByText('e2e-not-found', { exact: true }).waitFor()
    await table.getByText('e2e-bad-create', { exact: true }).waitFor()
    // Newest first: the 404 came after the 422.
    const ids = await table.locator('tbody tr td:nth-child(2)').allTextContents()
    assert.ok(ids.indexOf('e2e-not-found') < ids.indexOf('e2e-bad-create'), ids.join())

    // And POST: only the refused create.
    await page.getByLabel('Method').selectOption('POST')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.waitForURL(/method=POST/)
    await until(
      async () => (await table.getByText('e2e-not-found', { exact: true }).count()) === 0,
      () => page.waitForTimeout(100),
    )
    await table.getByRole('link', { name: 'e2e-bad-create' }).click()

    await page.getByRole('heading', { name: 'Request e2e-bad-create' }).waitFor()
    const facts = page.locator('dl.facts')
    await facts.getByText('createBot', { exact: true }).waitFor()
    await facts.getByText('validation_failed', { exact: true }).waitFor()
    assert.match((await facts.textContent()) ?? '', /422/)
    await checkA11y(page, 'API log detail')
    // Back keeps the filters.
    await page.goBack()
    await page.waitForURL(/status_class=4xx&method=POST|method=POST.*status_class=4xx/)
    assert.equal(await page.getByLabel('Method').inputValue(), 'POST')
    d.clean(page)
  })

  it('charts usage per day and lists the operations with latency', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/developers/usage')
    await page.getByRole('heading', { name: 'API usage' }).waitFor()
    const ops = page.getByRole('table', { name: /per operation/ })
    await refreshUntilShown(page, 'listBots')
    await ops.getByText('createBot', { exact: true }).waitFor()
    const chart = page.getByRole('img', { name: /Requests per day/ })
    await chart.waitFor()
    assert.equal(await chart.evaluate((el) => el.tagName), 'CANVAS')
    assert.ok((await chart.evaluate((el) => (el as HTMLCanvasElement).width)) > 0)
    // The chart's numbers as a table too.
    await page.getByText('Requests per day as a table').click()
    const days = page.getByRole('table', { name: 'Requests per day' })
    await days.waitFor()
    const today = new Date().toISOString().slice(0, 10)
    await days.getByRole('cell', { name: today, exact: true }).waitFor()
    await checkA11y(page, 'API usage')
    await assertFitsPhone(page, 'API usage')
    await screenshot(page, 'developers-usage')
    d.clean(page)
  })

  it('registers an OAuth app and shows its client secret exactly once', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/developers/oauth-apps')
    await page.getByRole('heading', { name: 'OAuth apps' }).waitFor()
    await page.getByText('No OAuth apps yet').waitFor()
    await page.getByRole('button', { name: 'Register an app' }).click()
    const dialog = page.getByRole('dialog', { name: 'Register an OAuth app' })
    await dialog.getByLabel('Name').fill('Partner CRM')
    await dialog.getByLabel('Redirect URIs').fill('https://crm.example/callback\nhttp://127.0.0.1:8765/cb')
    await dialog.getByLabel('leads:read').check()
    await checkA11y(page, 'OAuth app form')
    // A bad redirect URI: the API's problem, in the dialog.
    await dialog.getByLabel('Redirect URIs').fill('https://*.crm.example/callback')
    await dialog.getByRole('button', { name: 'Register' }).click()
    await dialog.getByRole('alert').waitFor()
    await dialog.getByLabel('Redirect URIs').fill('https://crm.example/callback\nhttp://127.0.0.1:8765/cb')
    await dialog.getByRole('button', { name: 'Register' }).click()

    const secret = (await page.getByTestId('secret-value').textContent()) ?? ''
    assert.match(secret, /^svc_ocs_/)
    assert.equal(await page.getByTestId('secret-value').count(), 1)
    const table = page.getByRole('region', { name: 'OAuth apps, newest first' })
    await table.getByRole('link', { name: 'Partner CRM' }).waitFor()
    await table.getByText('https://crm.example/callback').waitFor()
    await table.getByText('leads:read').waitFor()
    await checkA11y(page, 'OAuth apps with a new secret')
    await screenshot(page, 'developers-oauth-apps')
    await page.getByRole('button', { name: 'Done, I saved it' }).click()
    assert.equal(await page.getByTestId('secret-value').count(), 0)
    assert.ok(!(await page.content()).includes(secret), 'the secret is gone once dismissed')
    await assertFitsPhone(page, 'OAuth apps')

    // The detail: URIs and scopes, the secret's prefix only.
    await table.getByRole('link', { name: 'Partner CRM' }).click()
    await page.getByRole('heading', { name: 'Partner CRM' }).waitFor()
    await page.getByText('http://127.0.0.1:8765/cb').waitFor()
    assert.ok(!(await page.content()).includes(secret), 'never shown again')
    await checkA11y(page, 'OAuth app detail')
    // Rotating shows the new secret once.
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    const rot = page.getByRole('dialog', { name: 'Rotate the client secret' })
    await rot.getByLabel('Grace period (hours)').fill('0')
    await rot.getByRole('button', { name: 'Rotate secret' }).click()
    const rotated = (await page.getByTestId('secret-value').textContent()) ?? ''
    assert.match(rotated, /^svc_ocs_/)
    assert.notEqual(rotated, secret)
    await page.getByRole('status').getByText('Secret rotated.').waitFor()
    await page.getByRole('button', { name: 'Done, I saved it' }).click()
    assert.ok(!(await page.content()).includes(rotated))
    d.clean(page)
  })

  it('takes an OpenAPI snapshot and shows its diff with the breaking changes highlighted', async () => {
    // The previous snapshot as an older build left it: one more operation and a required Bot field.
    const served = JSON.parse((await d.h.request({ method: 'GET', url: '/v2/openapi.json', key: null })).body)
    const older = structuredClone(served)
    older.paths['/bots/{id}/archive'] = { post: { ...structuredClone(served.paths['/bots/{id}/publish'].post), operationId: 'archiveBot' } }
    older.components.schemas.Bot.properties.legacy_score = { type: 'integer' }
    older.components.schemas.Bot.required.push('legacy_score')
    const text = stringify(older) as string
    const previous = JSON.parse((await d.h.request({ method: 'POST', url: '/v2/openapi-snapshots', payload: { label: 'v2.3.0' } })).body)
    await d.h.step('snapshot-document', { snapshot_id: previous.id, text })

    const page = await d.open()
    await d.signIn(page, '/dashboard/developers/snapshots')
    await page.getByRole('heading', { name: 'OpenAPI snapshots' }).waitFor()
    await page.getByText('v2.3.0', { exact: true }).waitFor()
    await page.getByLabel('Label (optional)').fill('v2.4.0')
    await page.getByRole('button', { name: 'Take a snapshot' }).click()
    const notice = page.getByRole('status').filter({ hasText: 'with breaking changes' })
    await notice.waitFor()
    const table = page.getByRole('region', { name: 'OpenAPI snapshots, newest first' })
    await table.getByText('v2.4.0', { exact: true }).waitFor()
    await table.getByText(/^\d+ breaking$/).waitFor()
    await checkA11y(page, 'OpenAPI snapshots')
    await assertFitsPhone(page, 'OpenAPI snapshots')
    await screenshot(page, 'developers-snapshots')

    await notice.getByRole('link', { name: 'View its diff' }).click()
    await page.getByRole('heading', { name: 'Snapshot v2.4.0' }).waitFor()
    const breaking = page.getByRole('region', { name: /Breaking changes/ })
    await breaking.getByText('archiveBot').first().waitFor()
    await breaking
      .getByText(/legacy_score/)
      .first()
      .waitFor()
    assert.ok((await breaking.locator('li.breaking-change').count()) >= 2)
    await page.getByRole('region', { name: 'Removed operations' }).getByText('POST /bots/{id}/archive').waitFor()
    await page.getByRole('link', { name: previous.id }).waitFor()
    await checkA11y(page, 'OpenAPI snapshot diff')
    await screenshot(page, 'developers-snapshot-diff')
    // The stored document, through the member's token.
    await page.getByRole('button', { name: 'Get the document' }).click()
    await page.getByRole('link', { name: /Save openapi-snap_/ }).waitFor()
    d.clean(page)
  })
})
