import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'

const SPEC = new URL('../../../spec/operations.tsv', import.meta.url)
const ops = readFileSync(SPEC, 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => l.split('\t'))
  .filter((c) => c[4] === 'webhooks')
  .map(([method, path, operationId, scope]) => ({ method, path, operationId, scope }))

describe('webhooks module contract', () => {
  let h: TestApp
  let doc: any
  before(async () => {
    h = await createTestApp()
    doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
  })
  after(() => h.close())

  it('has all 23 operations of the spec in openapi.json with method, path, operationId and scope', () => {
    assert.equal(ops.length, 23)
    for (const op of ops) {
      const o = doc.paths[op.path]?.[op.method.toLowerCase()]
      assert.ok(o, `${op.method} ${op.path} missing`)
      assert.equal(o.operationId, op.operationId)
      assert.equal(o['x-required-scope'], op.scope)
      assert.deepEqual(o.tags, ['webhooks'])
      assert.ok(o.summary, `${op.operationId} summary`)
      for (const code of ['422', '429', '500']) assert.ok(o.responses[code], `${op.operationId} ${code}`)
      if (op.path.includes('/playground/')) assert.deepEqual(o.security, [], 'the Playground is public')
      else assert.ok(o.responses['401'] && o.responses['403'], `${op.operationId} 401/403`)
    }
  })

  it('describes its event types in the OpenAPI webhooks section, signed as docs/webhooks.md says', () => {
    for (const type of ['webhook.test', 'webhook_endpoint.disabled']) {
      const op = doc.webhooks[type]?.post
      assert.ok(op, `${type} missing from webhooks`)
      const headers = op.parameters.map((p: { $ref: string }) => doc.components.parameters[p.$ref.split('/').pop()!].name)
      assert.deepEqual(headers.slice(0, 4), ['Svc-Status-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature'])
    }
  })

  it('has a reference page per operation', async () => {
    for (const op of ops) {
      const r = await h.request({ method: 'GET', url: `/v2/api-docs/webhooks/${op.operationId}`, key: null })
      assert.equal(r.statusCode, 200, op.operationId)
      assert.match(r.body, new RegExp(op.operationId))
    }
  })

  it('reports a real health check in GET /health', async () => {
    const r = json(await h.request({ method: 'GET', url: '/v2/health' }))
    const w = r.modules.webhooks
    assert.equal(w.status, 'ok')
    assert.equal(typeof w.pending_deliveries, 'number')
    assert.equal(typeof w.oldest_due_delivery_age_seconds, 'number')
  })
})
