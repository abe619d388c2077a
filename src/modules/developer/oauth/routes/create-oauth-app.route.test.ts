import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, events, json, type TestApp } from '../../../../../test/helpers.js'

describe('createOAuthApp', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const create = (payload: object, key?: string) => h.request({ method: 'POST', url: key?.startsWith('svc_test_') ? '/sandbox/v2/oauth/apps' : '/v2/oauth/apps', payload, ...(key ? { key } : {}) })
  const base = { name: 'Partner CRM', redirect_uris: ['https://partner.example.com/cb'], allowed_scopes: ['read', 'leads:write'] }

  it('registers a confidential app: the secret is shown once and stored only as a hash', async () => {
    const res = await create(base)
    assert.equal(res.statusCode, 201, res.body)
    const app = json(res)
    assert.match(app.id, /^oapp_/)
    assert.match(app.client_id, /^svc_oci_[A-Za-z0-9_-]{22}$/)
    assert.match(app.client_secret, /^svc_ocs_[A-Za-z0-9_-]{43}$/)
    assert.equal(app.client_secret_prefix, app.client_secret.slice(0, 12))
    assert.equal(app.type, 'confidential')
    assert.deepEqual(app.allowed_scopes, ['read', 'leads:write'])
    assert.equal(app.livemode, true)
    const row = await h.app.kernel.db.selectFrom('oauth_apps').selectAll().where('id', '=', app.id).executeTakeFirstOrThrow()
    assert.ok(!JSON.stringify(row).includes(app.client_secret), 'no plaintext secret at rest')
    const listed = json(await h.request({ method: 'GET', url: '/v2/oauth/apps' })).data.find((a: { id: string }) => a.id === app.id)
    assert.equal(listed.client_secret, undefined, 'never listed')
    const [event] = await events(h, 'oauth_app.created')
    assert.equal(event.id, app.id)
    assert.ok(!JSON.stringify(event).includes(app.client_secret), 'events never carry the secret')
    const audit = await h.app.kernel.db.selectFrom('audit_log').selectAll().where('action', '=', 'createOAuthApp').executeTakeFirstOrThrow()
    assert.equal(audit.target_id, app.id)
  })

  it('registers a public app without a secret', async () => {
    const app = json(await create({ ...base, type: 'public' }))
    assert.equal(app.type, 'public')
    assert.equal(app.client_secret, null)
    assert.equal(app.client_secret_prefix, null)
  })

  it('accepts exact https URIs and http only on loopback', async () => {
    const ok = ['https://a.example.com/cb?x=1', 'http://127.0.0.1:8123/cb', 'http://[::1]:9000/cb', 'http://localhost/cb']
    assert.equal((await create({ ...base, redirect_uris: ok })).statusCode, 201)
  })

  it('refuses wildcards, fragments, plain http elsewhere, other schemes and relative URIs (422 with a pointer)', async () => {
    const bad = [
      'https://*.example.com/cb',
      'https://a.example.com/*',
      'https://a.example.com/cb#frag',
      'http://a.example.com/cb',
      'http://10.0.0.1/cb',
      'javascript:alert(1)',
      'com.example.app:/cb',
      '/cb',
      'https://user:pw@a.example.com/cb',
      'https://a.example.com/c b',
    ]
    for (const uri of bad) {
      const res = await create({ ...base, redirect_uris: ['https://ok.example.com/cb', uri] })
      assertProblem(res, 422, 'validation_failed')
      assert.equal(json(res).errors[0].pointer, '/body/redirect_uris/1', uri)
    }
  })

  it('refuses unknown scopes, no redirect URI and no scope', async () => {
    for (const payload of [
      { ...base, allowed_scopes: ['root'] },
      { ...base, redirect_uris: [] },
      { ...base, allowed_scopes: [] },
      { ...base, type: 'native' },
      { ...base, name: '' },
    ]) {
      assertProblem(await create(payload), 422, 'validation_failed')
    }
  })

  it('needs the write scope', async () => {
    assertProblem(await create(base, await h.key(['read'])), 403, 'insufficient_scope')
  })

  it('keeps sandbox apps apart from live ones', async () => {
    const sandbox = json(await create(base, h.a.test))
    assert.equal(sandbox.livemode, false)
    const live = json(await h.request({ method: 'GET', url: '/v2/oauth/apps' })).data
    assert.ok(!live.some((a: { id: string }) => a.id === sandbox.id))
    const test = json(await h.request({ method: 'GET', url: '/sandbox/v2/oauth/apps', key: h.a.test })).data
    assert.deepEqual(
      test.map((a: { id: string }) => a.id),
      [sandbox.id],
    )
  })
})
