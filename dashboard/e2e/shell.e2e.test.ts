import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'

describe('dashboard shell in Chromium: sign-in, workspace and mode, session end, CSP', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
  })
  after(() => d?.close())

  it('sends a signed-out browser to /login and back, then shows the workspace under the strict CSP', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard')
    const res = await page.request.get('/dashboard')
    assert.match(res.headers()['content-security-policy'] ?? '', /script-src 'self'/)
    assert.doesNotMatch(res.headers()['content-security-policy'] ?? '', /unsafe-inline|unsafe-eval/)
    assert.equal(new URL(page.url()).pathname, '/dashboard')
    await page.getByText('Workspace Acme').waitFor()
    await checkA11y(page, 'overview')
    await assertFitsPhone(page, 'overview')
    await screenshot(page, 'overview')
    d.clean(page)
  })

  it('switches to the sandbox with a banner impossible to miss, and the API calls go to /sandbox/v2', async () => {
    const page = await d.open()
    await d.signIn(page)
    const sandboxCall = page.waitForRequest((r) => r.url().includes('/sandbox/v2/workspaces/current'))
    await page.getByTestId('mode-sandbox').click()
    await sandboxCall
    await page.getByTestId('sandbox-banner').waitFor()
    assert.equal(await page.getByTestId('mode-sandbox').getAttribute('aria-pressed'), 'true')
    await checkA11y(page, 'overview in the sandbox')
    await screenshot(page, 'sandbox')
    d.clean(page)
  })

  it('goes to the sign-in page when the session ends, and signing out ends it', async () => {
    const page = await d.open()
    await d.signIn(page)
    // Settled first: a request still in flight when the cookies go would navigate to /login by itself.
    await page.getByText('Workspace Acme').waitFor()
    // Signed out elsewhere (another tab): the next API call cannot renew its token and lands on /login.
    await page.context().clearCookies()
    await page.goto('/dashboard/inbox')
    await page.waitForURL(/\/login\?next=%2Fdashboard%2Finbox/)
    await d.signIn(page, '/dashboard')
    await page.getByRole('button', { name: 'Sign out' }).click()
    await page.waitForURL(/\/login/)
    const again = await page.request.get('/dashboard/session')
    assert.equal(again.status(), 401)
    d.clean(page)
  })

  it('answers an unknown dashboard path with a not-found page, keyboard first (skip link)', async () => {
    const page = await d.open()
    await d.signIn(page, '/dashboard/nowhere')
    await page.getByRole('heading', { name: 'Page not found' }).waitFor()
    await page.keyboard.press('Tab')
    assert.equal(await page.evaluate(() => document.activeElement?.textContent), 'Skip to content')
    await checkA11y(page, 'not found')
    d.clean(page)
  })
})
