import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { MODULES } from '../src/modules/index.js'
import { FIXTURES } from './fixtures.js'
import { createTestApp, json, type TestApp } from './helpers.js'

// Operations the spec lists under two paths are one operation (aliasRoute): same contract, same answers.
const routes = MODULES.flatMap((m) => m.routes)
const aliases = routes.filter((r) => r.aliasOf)

describe('path aliases', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('exist for every path family the spec lists twice', () => {
    assert.deepEqual(aliases.map((r) => r.operationId).sort(), [
      'createPublicWebhookEndpoint',
      'deletePublicWebhookEndpoint',
      'getPublicWebhookEndpoint',
      'listEventCatalog',
      'listPublicConversations',
      'listPublicWebhookEndpoints',
      'updatePublicWebhookEndpoint',
    ])
  })

  for (const alias of aliases) {
    const of = routes.find((r) => r.operationId === alias.aliasOf)!
    it(`${alias.operationId} is ${of.operationId} under ${alias.url}`, async () => {
      assert.equal(alias.method, of.method)
      assert.equal(alias.scope, of.scope)
      assert.equal(alias.schema, of.schema)
      assert.equal(alias.handler, of.handler)
      assert.deepEqual(alias.errors, of.errors)
      const made = FIXTURES[alias.operationId] ? await FIXTURES[alias.operationId](h) : {}
      const { params, body } =
        'params' in made && typeof made.params === 'object' ? (made as { params: Record<string, string>; body?: unknown }) : { params: made as Record<string, string>, body: undefined }
      const fill = (url: string) => url.replace(/\{([a-z_]+)\}/g, (_, p: string) => params[p])
      const payload = alias.method === 'POST' ? (body ?? { url: 'https://example.com/alias' }) : (body as object | undefined)
      const viaAlias = await h.request({ method: alias.method, url: '/v2' + fill(alias.url), payload: payload as object })
      const success = Number(Object.keys(alias.schema.response)[0])
      assert.equal(viaAlias.statusCode, success, viaAlias.body)
      if (alias.method === 'GET') {
        const viaOriginal = await h.request({ method: 'GET', url: '/v2' + fill(of.url) })
        assert.deepEqual(json(viaAlias), json(viaOriginal))
      }
    })
  }
})
