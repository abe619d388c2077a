import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { Page } from 'playwright-core'
import { json } from './server.js'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

const DEV = '/dashboard/developers'

describe('dashboard developers: webhooks, deliveries and the Playground in Chromium', { skip }, () => {
  let d: Dashboard
  let page: Page
  let endpointId = ''
  let playgroundUrl = ''
  before(async () => {
    d = await startDashboard({ env: { WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true' } })
    page = await d.open()
    await d.signIn(page, `${DEV}/playground`)
  })
  after(() => d?.close())

  it('creates an endpoint pointing at the Playground from the Playground, and a test delivery shows there live, signature checked', async () => {
    await page.getByRole('heading', { name: 'Webhook Playground' }).waitFor()
    await page.getByTestId('playground-status').getByText('Live').waitFor()
    playgroundUrl = (await page.getByTestId('playground-url').textContent()) ?? ''
    assert.match(playgroundUrl, new RegExp(`^${d.url}/v2/webhooks/playground/[A-Za-z0-9_-]{43}$`))
    await page.getByText('Waiting for the first request').waitFor()
    await checkA11y(page, 'playground (empty)')

    // "Create an endpoint pointing here": the new-endpoint dialog opens with the URL filled in.
    await page.getByRole('link', { name: 'Create an endpoint pointing here' }).click()
    await page.waitForURL((u) => u.pathname === `${DEV}/webhooks`)
    const dialog = page.getByRole('dialog', { name: 'New webhook endpoint' })
    assert.equal(await dialog.getByLabel('URL').inputValue(), playgroundUrl)
    await dialog.getByLabel('Description').fill('Playground')
    await checkA11y(page, 'new endpoint dialog')
    await dialog.getByRole('button', { name: 'Create endpoint' }).click()
    const created = page.getByRole('dialog', { name: 'Endpoint created' })
    assert.match((await created.getByTestId('secret-value').textContent()) ?? '', /^whsec_/)
    await created.getByRole('link', { name: 'Open the endpoint' }).click()
    await page.waitForURL((u) => u.pathname.startsWith(`${DEV}/webhooks/we_`))
    endpointId = new URL(page.url()).pathname.split('/').pop()!
    assert.equal(await page.getByTestId('secret-value').count(), 0, 'the secret is not shown again')

    // Back to the Playground (same tab: same inbox), then send a test event from a second tab.
    await page.getByRole('link', { name: 'Playground' }).first().click()
    await page.getByTestId('playground-status').getByText('Live').waitFor()
    assert.equal(await page.getByTestId('playground-url').textContent(), playgroundUrl, 'the tab keeps its inbox')
    await page.evaluate(() => ((window as unknown as { notReloaded: boolean }).notReloaded = true))
    const other = await page.context().newPage()
    await other.goto(`${DEV}/webhooks/${endpointId}`)
    await other.getByRole('button', { name: 'Send test event' }).click()
    await other.getByText(/Test event sent: delivery whd_/).waitFor()
    await other.close()

    const capture = page.getByRole('article').filter({ hasText: 'webhook.test' })
    await capture.waitFor({ timeout: 20_000 })
    await capture.getByText('Signature valid').waitFor()
    await page.getByText('1 request received').waitFor()
    assert.equal(await page.evaluate(() => (window as unknown as { notReloaded?: boolean }).notReloaded), true, 'it arrived without a reload')
    assert.match((await capture.getByLabel('Body of the POST request').textContent()) ?? '', /"type": "webhook.test"/)
    await checkA11y(page, 'playground with a capture')
    await screenshot(page, 'developers-playground')
    await assertFitsPhone(page, 'playground')

    // A reload keeps the inbox and shows what it holds.
    await page.reload()
    await page.getByRole('article').filter({ hasText: 'webhook.test' }).waitFor()
    assert.equal(await page.getByTestId('playground-url').textContent(), playgroundUrl)
    d.clean(page)
  })

  it('lists the endpoint; disables and enables it', async () => {
    await page.goto(`${DEV}/webhooks`)
    const row = page.getByRole('row').filter({ hasText: playgroundUrl })
    await row.getByText('enabled').waitFor()
    await checkA11y(page, 'webhooks list')
    await screenshot(page, 'developers-webhooks')
    await assertFitsPhone(page, 'webhooks list')

    await row.getByRole('link', { name: playgroundUrl }).click()
    await page.getByRole('heading', { name: playgroundUrl }).waitFor()
    await page.getByRole('button', { name: 'Disable endpoint' }).click()
    await page.getByText('Endpoint disabled: no deliveries until you enable it again.').waitFor()
    assert.equal(json(await d.h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${endpointId}` })).enabled, false)
    assert.equal(await page.getByRole('button', { name: 'Send test event' }).isDisabled(), true)
    await checkA11y(page, 'endpoint detail (disabled)')
    await page.getByRole('button', { name: 'Enable endpoint' }).click()
    await page.getByText('Endpoint enabled: deliveries resume.').waitFor()
    assert.equal(json(await d.h.request({ method: 'GET', url: `/v2/webhooks/endpoints/${endpointId}` })).enabled, true)
    d.clean(page)
  })

  it('rotates the secret: the new one is shown once, gone after closing', async () => {
    await page.goto(`${DEV}/webhooks/${endpointId}`)
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    const dialog = page.getByRole('dialog', { name: 'Rotate the signing secret' })
    await dialog.getByLabel('Grace period (hours)').fill('1')
    await dialog.getByRole('button', { name: 'Rotate secret' }).click()
    const done = page.getByRole('dialog', { name: 'Secret rotated' })
    const secret = (await done.getByTestId('secret-value').textContent()) ?? ''
    assert.match(secret, /^whsec_/)
    await done.getByText('The previous secret keeps signing until').waitFor()
    await checkA11y(page, 'secret rotated')
    await done.getByRole('button', { name: 'Done' }).click()
    assert.equal(await page.getByTestId('secret-value').count(), 0)
    assert.equal(await page.getByText(secret).count(), 0, 'the secret is gone from the page')
    // Opening the dialog again asks again; it does not show the old secret.
    await page.getByRole('button', { name: 'Rotate secret' }).click()
    await page.getByRole('dialog', { name: 'Rotate the signing secret' }).waitFor()
    assert.equal(await page.getByTestId('secret-value').count(), 0)
    await page.keyboard.press('Escape')
    d.clean(page)
  })

  it('filters deliveries, shows each attempt, and replays with one click', async () => {
    await page.goto(`${DEV}/deliveries`)
    await page.getByRole('heading', { name: 'Webhook deliveries' }).waitFor()
    await page.getByLabel('Status').selectOption('failed')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    await page.getByText('No delivery matches these filters').waitFor()
    await page.getByLabel('Status').selectOption('succeeded')
    await page.getByLabel('Event type').fill('webhook.test')
    await page.getByRole('button', { name: 'Apply filters' }).click()
    const row = page.getByRole('row').filter({ hasText: 'webhook.test' })
    await row.getByText('succeeded').waitFor()
    await checkA11y(page, 'deliveries list')
    await assertFitsPhone(page, 'deliveries list')

    await row.getByRole('link', { name: /^whd_/ }).click()
    await page.getByRole('heading', { name: 'Webhook delivery' }).waitFor()
    const attempts = page.getByRole('region', { name: 'Attempts, newest first' })
    await attempts.getByRole('row').nth(1).waitFor()
    assert.equal(await attempts.getByRole('row').count(), 2, 'one attempt')
    await attempts.getByText('200', { exact: true }).waitFor()
    await attempts.getByText('Body of attempt 1').click()
    await attempts.getByText(/webhook_playground_receipt/).waitFor()
    await checkA11y(page, 'delivery detail')

    await page.getByRole('button', { name: 'Replay' }).click()
    await page.getByText('Replayed: attempt 2 is below.').waitFor({ timeout: 20_000 })
    const replayRow = attempts.getByRole('row').filter({ hasText: 'replay' })
    await replayRow.getByText('succeeded').waitFor({ timeout: 20_000 })
    assert.equal(await attempts.getByRole('row').count(), 3, 'two attempts')
    await screenshot(page, 'developers-delivery')
    d.clean(page)
  })
})
