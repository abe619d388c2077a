import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertFitsPhone, checkA11y, screenshot, skip, startDashboard, type Dashboard } from './harness.js'
import { json, ok, post, type Server } from './server.js'

const DEV = '/dashboard/developers'

/** An OAuth app of workspace A. */
const registerApp = (s: Server, body: Record<string, unknown>): Promise<{ id: string; client_id: string }> =>
  ok(post(s, '/oauth/apps', { name: 'Partner CRM', redirect_uris: ['https://partner.example.com/oauth/callback'], allowed_scopes: ['read', 'write', 'admin', 'leads:read'], ...body }), 201)
/** Globex's "Partner CRM" authorized by a new member of Acme through the real consent flow (the server's step). */
const authorizationInA = (s: Server) => s.step<{ id: string; app: { id: string; client_id: string }; access_token: string }>('oauth-authorization-in-a')
const api = (s: Server, token: string, method: 'GET', url: string) => s.request({ method, url, key: token })

describe('dashboard OAuth in Chromium: the apps a workspace authorized (revoke), deleting an app', { skip }, () => {
  let d: Dashboard
  before(async () => {
    d = await startDashboard()
  })
  after(() => d?.close())

  it('lists the authorized apps and revokes one after confirming: its token stops working at once', async () => {
    // A member of Acme authorizes Globex's "Partner CRM" through the real consent flow.
    const g = await authorizationInA(d.h)
    const grantor = json(await d.h.request({ method: 'GET', url: `/v2/workspaces/${d.h.a.workspaceId}/members?limit=100` })).data.find((m: { id: string; email: string }) =>
      m.email.startsWith('grantor-'),
    )
    const page = await d.open()
    await d.signIn(page, `${DEV}/authorized-apps`)
    await page.getByRole('heading', { name: 'Authorized apps' }).waitFor()
    const table = page.getByRole('region', { name: 'Authorized apps, newest first' })
    await table.getByRole('cell', { name: `Partner CRM ${g.app.client_id}` }).waitFor()
    await table.getByText(grantor.email).waitFor()
    await table.getByText('active', { exact: true }).waitFor()
    await checkA11y(page, 'authorized apps')
    await screenshot(page, 'developers-authorized-apps')

    // Revoke asks first; Cancel keeps it.
    await table.getByRole('button', { name: 'Revoke Partner CRM' }).click()
    const confirm = page.getByRole('dialog', { name: 'Revoke this authorization?' })
    await checkA11y(page, 'revoke authorization dialog')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    assert.equal((await api(d.h, g.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)

    await table.getByRole('button', { name: 'Revoke Partner CRM' }).click()
    await confirm.getByRole('button', { name: 'Revoke' }).click()
    await page.getByText(`Revoked Partner CRM for ${grantor.email}.`).waitFor()
    await table.getByText('revoked by the workspace').waitFor()
    assert.equal(await table.getByRole('button', { name: 'Revoke Partner CRM' }).count(), 0)
    assert.equal((await api(d.h, g.access_token, 'GET', '/v2/workspaces/current')).statusCode, 401)
    const listed = json(await d.h.request({ method: 'GET', url: '/v2/oauth/authorizations' })).data.find((a: { id: string }) => a.id === g.id)
    assert.equal(listed.status, 'revoked')
    await assertFitsPhone(page, 'authorized apps')
    d.clean(page)
  })

  it('deletes an OAuth app after confirming', async () => {
    const app = await registerApp(d.h, { name: 'Doomed app' })
    const page = await d.open()
    await d.signIn(page, `${DEV}/oauth-apps/${app.id}`)
    await page.getByRole('heading', { name: 'Doomed app' }).waitFor()
    await page.getByRole('button', { name: 'Delete app' }).click()
    const confirm = page.getByRole('dialog', { name: 'Delete this app?' })
    await checkA11y(page, 'delete OAuth app dialog')
    await confirm.getByRole('button', { name: 'Cancel' }).click()
    assert.ok(json(await d.h.request({ method: 'GET', url: '/v2/oauth/apps' })).data.some((a: { id: string }) => a.id === app.id))
    await page.getByRole('button', { name: 'Delete app' }).click()
    await confirm.getByRole('button', { name: 'Delete app' }).click()
    await page.waitForURL((u) => u.pathname === `${DEV}/oauth-apps`)
    await page.getByText('App Doomed app deleted; its authorizations are revoked.').waitFor()
    assert.ok(!json(await d.h.request({ method: 'GET', url: '/v2/oauth/apps' })).data.some((a: { id: string }) => a.id === app.id))
    d.clean(page)
  })
})
