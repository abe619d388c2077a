import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { memberWithPassword, PageBrowser } from '../../workspaces/sign-in/sign-in.testkit.js'
import { api, authorizeUrl, consent, exchange, registerApp, responseParams, type TestOAuthApp } from './oauth.testkit.js'

const PASSWORD = 'member password 123'

describe('OAuth access tokens on the API', () => {
  let h: TestApp
  let app: TestOAuthApp
  let b: PageBrowser
  const clock = new ManualClock()
  before(async () => {
    h = await createTestApp({ clock })
    // The app belongs to Globex; Acme's member authorizes it for Acme.
    app = await registerApp(h, {}, h.b.live)
    await memberWithPassword(h, 'ada@example.com', PASSWORD, { role: 'admin' })
    await memberWithPassword(h, 'ada@example.com', PASSWORD, { key: h.a.test })
    b = new PageBrowser(h)
    await b.signIn('ada@example.com', PASSWORD)
  })
  after(() => h.close())

  const tokenFor = async (scope: string, tenant = `${h.a.workspaceId}:live`) =>
    json(await exchange(h, app, responseParams(await consent(b, authorizeUrl(app, { scope }), { tenant })).get('code')!)).access_token as string

  it('allows exactly the granted scopes: read reads, and a write is 403 insufficient_scope', async () => {
    const token = await tokenFor('read')
    assert.equal((await api(h, token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    assert.equal((await api(h, token, 'GET', '/v2/inbox/conversations')).statusCode, 200)
    const write = await api(h, token, 'POST', '/v2/inbox/conversations', {})
    assert.equal(write.statusCode, 403)
    assert.equal(json(write).code, 'insufficient_scope')
    assert.match(String(write.headers['www-authenticate']), /error="insufficient_scope", scope="messages:write"/)
    const granular = await tokenFor('leads:read')
    assert.equal((await api(h, granular, 'GET', '/v2/leads')).statusCode, 200)
    assert.equal((await api(h, granular, 'GET', '/v2/workspaces/current')).statusCode, 403)
    const writer = await tokenFor('write')
    assert.equal((await api(h, writer, 'POST', '/v2/inbox/conversations', {})).statusCode, 201)
  })

  it('works only for the granting workspace: another workspace’s resources are 404, the app owner’s data is out of reach', async () => {
    const token = await tokenFor('admin')
    const current = json(await api(h, token, 'GET', '/v2/workspaces/current'))
    assert.equal(current.id, h.a.workspaceId, 'the granting workspace, not the app’s')
    assert.equal((await api(h, token, 'GET', `/v2/workspaces/${h.b.workspaceId}`)).statusCode, 404)
    const globexConversation = json(await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: {}, key: h.b.live }))
    assert.equal((await api(h, token, 'GET', `/v2/inbox/conversations/${globexConversation.id}`)).statusCode, 404)
    const mine = json(await api(h, token, 'POST', '/v2/inbox/conversations', {}))
    assert.equal((await api(h, token, 'GET', `/v2/inbox/conversations/${mine.id}`)).statusCode, 200)
    assert.equal((await h.request({ method: 'GET', url: `/v2/inbox/conversations/${mine.id}`, key: h.b.live })).statusCode, 404)
  })

  it('works only on the base URL of the granted mode', async () => {
    const live = await tokenFor('read')
    const onSandbox = await api(h, live, 'GET', '/sandbox/v2/workspaces/current')
    assert.equal(onSandbox.statusCode, 401)
    assert.equal(json(onSandbox).code, 'wrong_environment')
    const test = await tokenFor('read', `${h.a.workspaceId}:test`)
    assert.equal(json(await api(h, test, 'GET', '/sandbox/v2/workspaces/current')).livemode, false)
    assert.equal(json(await api(h, test, 'GET', '/v2/workspaces/current')).code, 'wrong_environment')
  })

  it('records the app as the actor of its writes in the audit log', async () => {
    const token = await tokenFor('write')
    const conv = json(await api(h, token, 'POST', '/v2/inbox/conversations', {}))
    const entry = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('target_id', '=', conv.id).executeTakeFirstOrThrow()
    assert.equal(entry.actor_type, 'oauth_app')
    assert.equal(entry.actor_id, app.id)
  })

  it('refuses a refresh token, an unknown token, and an access token after its hour', async () => {
    const t = json(await exchange(h, app, responseParams(await consent(b, authorizeUrl(app))).get('code')!))
    assert.equal((await api(h, t.refresh_token, 'GET', '/v2/workspaces/current')).statusCode, 401)
    assert.equal((await api(h, `svc_oat_${'x'.repeat(43)}`, 'GET', '/v2/workspaces/current')).statusCode, 401)
    assert.equal((await api(h, t.access_token, 'GET', '/v2/workspaces/current')).statusCode, 200)
    clock.advance(3600_000)
    const expired = await api(h, t.access_token, 'GET', '/v2/workspaces/current')
    assert.equal(expired.statusCode, 401)
    assert.match(json(expired).detail, /OAuth access token is unknown, expired or revoked/)
  })
})
