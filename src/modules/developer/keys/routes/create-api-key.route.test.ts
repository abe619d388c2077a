import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, get, ok, post, type TestApp } from '../../../../../test/helpers.js'

describe('createApiKey', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())

  it('makes a key of this mode with the chosen scopes, shown once, that works at once and only as far as its scopes', async () => {
    const made = await ok(post(h, '/api-keys', { name: 'CRM sync', scopes: ['conversations:read'] }), 201)
    assert.match(made.key, /^svc_live_/)
    assert.equal(made.prefix, made.key.slice(0, 13))
    assert.deepEqual(
      { object: made.object, name: made.name, scopes: made.scopes, status: made.status, livemode: made.livemode, last_used_at: made.last_used_at },
      { object: 'api_key', name: 'CRM sync', scopes: ['conversations:read'], status: 'active', livemode: true, last_used_at: null },
    )
    await ok(get(h, '/inbox/conversations', made.key))
    assertProblem(await get(h, '/bots', made.key), 403, 'insufficient_scope')
    // Never again: the list and the key itself carry no secret.
    const listed = await ok(get(h, `/api-keys/${made.id}`))
    assert.equal(listed.key, undefined)
    const rows = await h.app.kernel.db.selectFrom('api_keys').selectAll().where('id', '=', made.id).execute()
    assert.ok(!JSON.stringify(rows).includes(made.key))
  })

  it('on the sandbox base URL makes a svc_test_ key', async () => {
    const made = await ok(h.request({ method: 'POST', url: '/sandbox/v2/api-keys', payload: { scopes: ['read'] }, key: h.a.test }), 201)
    assert.match(made.key, /^svc_test_/)
    assert.equal(made.livemode, false)
  })

  it('refuses unknown, duplicate or no scopes, and needs admin', async () => {
    assertProblem(await post(h, '/api-keys', { scopes: ['everything'] }), 422, 'validation_failed')
    assertProblem(await post(h, '/api-keys', { scopes: [] }), 422, 'validation_failed')
    assertProblem(await post(h, '/api-keys', { scopes: ['read', 'read'] }), 422, 'validation_failed')
    const writer = await h.key(['write'])
    assertProblem(await post(h, '/api-keys', { scopes: ['read'] }, { key: writer }), 403, 'insufficient_scope')
  })
})
