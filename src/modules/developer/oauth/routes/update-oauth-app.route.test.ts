import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../../kernel/clock.js'
import { assertProblem, createTestApp, events, json, type TestApp } from '../../../../../test/helpers.js'
import { registerApp, tokenRequest } from '../oauth.testkit.js'

describe('updateOAuthApp', () => {
  let h: TestApp
  const clock = new ManualClock()
  before(async () => (h = await createTestApp({ clock })))
  after(() => h.close())
  const update = (payload: object, key?: string) => h.request({ method: 'PATCH', url: '/v2/oauth/apps', payload, ...(key ? { key } : {}) })
  // A client-authenticated call that gets past client authentication only with a good secret (then invalid_grant).
  const authenticates = async (clientId: string, secret: string) => {
    const r = await tokenRequest(h, { grant_type: 'authorization_code', code: 'svc_oac_none' }, { basic: [clientId, secret] })
    return r.statusCode === 400 && json(r).error === 'invalid_grant'
  }

  it('changes the app named by client_id in the body', async () => {
    const app = await registerApp(h)
    const res = await update({ client_id: app.client_id, name: 'Partner CRM v2', redirect_uris: ['https://new.example.com/cb'], allowed_scopes: ['read'] })
    assert.equal(res.statusCode, 200, res.body)
    const view = json(res)
    assert.equal(view.name, 'Partner CRM v2')
    assert.deepEqual(view.redirect_uris, ['https://new.example.com/cb'])
    assert.deepEqual(view.allowed_scopes, ['read'])
    assert.equal(view.client_secret, null, 'no secret unless rotated')
    assert.equal((await events(h, 'oauth_app.updated')).at(-1).name, 'Partner CRM v2')
  })

  it('answers 404 for a client_id of another workspace, of the sandbox, or unknown', async () => {
    const app = await registerApp(h)
    assertProblem(await update({ client_id: app.client_id, name: 'x' }, h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'PATCH', url: '/sandbox/v2/oauth/apps', key: h.a.test, payload: { client_id: app.client_id, name: 'x' } }), 404, 'resource_not_found')
    assertProblem(await update({ client_id: 'svc_oci_unknown', name: 'x' }), 404, 'resource_not_found')
    assertProblem(await update({ name: 'x' }), 422, 'validation_failed')
    assertProblem(await update({ client_id: app.client_id, redirect_uris: ['https://*.example.com'] }), 422, 'validation_failed')
  })

  it('rotates the secret: the new one is shown once, the old one works for the grace period only', async () => {
    const app = await registerApp(h)
    assert.ok(await authenticates(app.client_id, app.client_secret!))
    const rotated = json(await update({ client_id: app.client_id, rotate_secret: true, secret_grace_hours: 2 }))
    assert.match(rotated.client_secret, /^svc_ocs_/)
    assert.notEqual(rotated.client_secret, app.client_secret)
    assert.equal(Date.parse(rotated.previous_secret_expires_at), clock.now().getTime() + 2 * 3600_000)
    assert.ok(await authenticates(app.client_id, rotated.client_secret))
    assert.ok(await authenticates(app.client_id, app.client_secret!), 'old secret within the grace')
    clock.advance(2 * 3600_000 + 1000)
    assert.ok(!(await authenticates(app.client_id, app.client_secret!)), 'old secret after the grace')
    assert.ok(await authenticates(app.client_id, rotated.client_secret))
    const now = json(await update({ client_id: app.client_id, rotate_secret: true, secret_grace_hours: 0 }))
    assert.ok(!(await authenticates(app.client_id, rotated.client_secret)), 'grace 0: at once')
    assert.ok(await authenticates(app.client_id, now.client_secret))
    assert.ok(!(await h.app.kernel.db.selectFrom('oauth_apps').selectAll().execute()).some((r) => JSON.stringify(r).includes(now.client_secret)))
  })

  it('refuses to rotate a public app’s (absent) secret, and a grace without a rotation', async () => {
    const app = await registerApp(h, { type: 'public' })
    assertProblem(await update({ client_id: app.client_id, rotate_secret: true }), 422, 'validation_failed')
    assertProblem(await update({ client_id: app.client_id, secret_grace_hours: 3 }), 422, 'validation_failed')
  })
})
