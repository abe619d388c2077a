import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { errorSpec } from '../src/kernel/errors.js'
import { MODULES } from '../src/modules/index.js'
import { createTestApp, json, type TestApp } from './helpers.js'

// The project's copy of the spec's operation table (spec/operations.tsv).
const table = readFileSync(new URL('../spec/operations.tsv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((l) => {
    const [method, path, operationId, scope, module] = l.split('\t')
    return { method, path, operationId, scope, module }
  })
const implemented = MODULES.flatMap((m) => m.routes)
const builtModules = new Set(MODULES.map((m) => m.name))

describe('OpenAPI document and reference pages', () => {
  let h: TestApp
  let doc: any
  before(async () => {
    h = await createTestApp()
    const res = await h.request({ method: 'GET', url: '/v2/openapi.json', key: null })
    assert.equal(res.statusCode, 200)
    doc = json(res)
  })
  after(() => h.close())

  it('is OpenAPI 3.1 with both servers and bearer auth', () => {
    assert.match(doc.openapi, /^3\.1\./)
    assert.equal(doc.info.version, '2.4.0')
    assert.ok(doc.servers.some((s: { url: string }) => s.url.endsWith('/v2')))
    assert.ok(doc.servers.some((s: { url: string }) => s.url.endsWith('/sandbox/v2')))
    assert.equal(doc.components.securitySchemes.bearerAuth.scheme, 'bearer')
    // The OAuth endpoints, under the live base URL where every operation is (SPEC §4.1).
    const flow = doc.components.securitySchemes.oauth2.flows.authorizationCode
    const live = doc.servers.find((s: { url: string }) => s.url.endsWith('/v2') && !s.url.endsWith('/sandbox/v2')).url
    assert.deepEqual([flow.authorizationUrl, flow.tokenUrl, flow.refreshUrl], [`${live}/oauth/authorize`, `${live}/oauth/token`, `${live}/oauth/token`])
    assert.ok(flow.scopes.read && flow.scopes.admin)
  })

  it('every implemented route is in the operation table with the same method, path, operationId, scope and module', () => {
    for (const r of implemented) {
      const row = table.find((t) => t.operationId === r.operationId)
      assert.ok(row, `${r.operationId} is not in spec/operations.tsv`)
      assert.deepEqual({ method: r.method, path: r.url, scope: r.scope, module: r.module }, { method: row.method, path: row.path, scope: row.scope, module: row.module })
    }
  })

  it('every operation of a built module is implemented (no module is half there)', () => {
    for (const row of table.filter((t) => builtModules.has(t.module))) {
      assert.ok(
        implemented.some((r) => r.operationId === row.operationId),
        `${row.operationId} of module ${row.module} is missing`,
      )
    }
  })

  it('the document holds exactly the implemented operations, each complete', () => {
    const ops: Record<string, any> = {}
    for (const [path, methods] of Object.entries<any>(doc.paths)) {
      for (const [method, op] of Object.entries<any>(methods)) ops[op.operationId] = { ...op, path, method: method.toUpperCase() }
    }
    assert.deepEqual(Object.keys(ops).sort(), implemented.map((r) => r.operationId).sort())
    for (const row of table.filter((t) => ops[t.operationId])) {
      const op = ops[row.operationId]
      assert.equal(op.path, row.path, row.operationId)
      assert.equal(op.method, row.method, row.operationId)
      assert.equal(op['x-required-scope'], row.scope, row.operationId)
      assert.deepEqual(op.tags, [row.module], row.operationId)
      assert.ok(op.summary, `${row.operationId} has no summary`)
      const route = implemented.find((r) => r.operationId === row.operationId)!
      if (route.public) {
        assert.deepEqual(op.security, [], `${row.operationId} is public`)
      } else {
        // An API key, or an OAuth access token with the same scope (issue 30: the OAuth endpoints are listed under the base URL).
        // A route admitted by any of several scopes (the event stream) lists each as an alternative.
        const scopes: string[] = route.anyScope ? [...route.anyScope] : [row.scope]
        assert.deepEqual(
          op.security,
          scopes.flatMap((s) => [{ bearerAuth: [s] }, { oauth2: [s] }]),
          row.operationId,
        )
        for (const code of ['401', '403', '422', '429', '500']) assert.ok(op.responses[code], `${row.operationId} lacks ${code}`)
      }
      assert.ok(
        Object.keys(op.responses).some((c) => c.startsWith('2')),
        `${row.operationId} has no success response`,
      )
    }
  })

  it('is made for client generators: named components, enums, no $id, headers, idempotency, bodies', () => {
    const ops = Object.values<any>(doc.paths).flatMap((methods) => Object.entries<any>(methods).map(([method, op]) => ({ ...op, method: method.toUpperCase() })))
    const text = JSON.stringify(doc)
    assert.doesNotMatch(text, /"\$id"/, 'no $id is left (no collisions in one Ajv instance)')
    assert.doesNotMatch(text, /"const"/, 'literals are enums')
    assert.doesNotMatch(text, /"Default Response"/)
    // No anyOf made of one-value branches only.
    const walk = (v: unknown): void => {
      if (Array.isArray(v)) return v.forEach(walk)
      if (!v || typeof v !== 'object') return
      const o = v as Record<string, any>
      if (Array.isArray(o.anyOf)) assert.ok(!o.anyOf.every((b: any) => Array.isArray(b?.enum) && b.enum.length === 1), JSON.stringify(o))
      Object.values(o).forEach(walk)
    }
    walk(doc)
    assert.deepEqual(doc.info.license, { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' })
    for (const name of ['Conversation', 'ConversationList', 'WebhookEndpoint', 'Workspace', 'Problem']) assert.ok(doc.components.schemas[name], name)
    assert.ok(doc.components.requestBodies.CreateConversationBody)
    for (const op of ops) {
      const route = implemented.find((r) => r.operationId === op.operationId)!
      const write = op.method !== 'GET'
      const statuses = Object.keys(op.responses)
      for (const [code, response] of Object.entries<any>(op.responses)) {
        assert.ok(response.description && response.description !== 'Default Response', `${op.operationId} ${code}`)
        assert.ok(response.headers['X-Request-ID'] && response.headers['Svc-Api-Version'] && response.headers.RateLimit, `${op.operationId} ${code} headers`)
        if (code === '429' || code === '503') assert.ok(response.headers['Retry-After'], `${op.operationId} ${code} Retry-After`)
        if (code.startsWith('2') && route.sse) {
          // Event streams (docs/api-conventions.md): 200 text/event-stream (a POST's replayed under its Idempotency-Key),
          // 204 when a resume has nothing left (a resume skips the key: never replayed).
          if (code === '200') {
            for (const one of response.content['text/event-stream'].schema.anyOf) assert.match(one.$ref, /^#\/components\/schemas\//, `${op.operationId} event data is a named schema`)
          }
          assert.equal(!!response.headers['Idempotent-Replayed'], write && code === '200', `${op.operationId} ${code} Idempotent-Replayed`)
        } else if (code === '206' && route.media) {
          // A file's byte range (getVoiceRecording): the file's media type only.
          assert.deepEqual(Object.keys(response.content), [route.media.type], `${op.operationId} 206`)
          assert.ok(response.headers['Content-Range'], `${op.operationId} 206 Content-Range`)
        } else if (code.startsWith('2')) {
          if (route.media) assert.ok(response.content[route.media.type], `${op.operationId} ${code} also answers ${route.media.type}`)
          assert.match(response.content['application/json'].schema.$ref, /^#\/components\/schemas\//, `${op.operationId} ${code} is a named schema`)
          assert.equal(!!response.headers['Idempotent-Replayed'], write, `${op.operationId} ${code} Idempotent-Replayed`)
        }
      }
      assert.ok(statuses.includes('405') && statuses.includes('503'), `${op.operationId} declares 405 and 503`)
      const hasBody = ['POST', 'PUT', 'PATCH'].includes(op.method)
      assert.equal(statuses.includes('413'), hasBody, `${op.operationId} 413`)
      assert.equal(statuses.includes('415'), hasBody && !route.rawBody, `${op.operationId} 415`)
      const declares = (status: number) => (route.errors ?? []).some((c) => errorSpec(c).status === status)
      assert.equal(statuses.includes('404'), route.url.includes('{') || declares(404), `${op.operationId} 404`)
      assert.equal(statuses.includes('409'), write || declares(409), `${op.operationId} 409`)
      const idempotencyKey = (op.parameters ?? []).some((p: any) => p.$ref === '#/components/parameters/IdempotencyKey')
      assert.equal(idempotencyKey, write, `${op.operationId} Idempotency-Key`)
    }
    assert.equal(doc.components.parameters.IdempotencyKey.name, 'Idempotency-Key')
    const body = (path: string, method: string) => {
      const rb = doc.paths[path][method].requestBody
      return rb?.$ref ? doc.components.requestBodies[rb.$ref.split('/').pop()] : rb
    }
    for (const [path, method] of [
      ['/inbox/conversations', 'post'],
      ['/inbox/conversations/{id}/ai-draft', 'post'],
      ['/webhooks/endpoints/{id}/rotate-secret', 'post'],
      ['/webhooks/deliveries/{id}/replay', 'post'],
    ]) {
      assert.equal(body(path, method).required, false, `${method} ${path} body is optional`)
    }
    assert.equal(body('/inbox/conversations/{id}', 'patch').required, true)
    for (const method of ['post', 'put', 'patch']) assert.ok(body('/webhooks/playground/{token}', method).content['*/*'], `Playground ${method} takes any content type`)
  })

  it('has an OpenAPI 3.1 webhooks section: one POST per event type with the envelope and the signature headers', () => {
    const catalog = h.app.kernel.events.catalog()
    assert.deepEqual(Object.keys(doc.webhooks).sort(), catalog.map((t) => t.type).sort())
    for (const t of catalog) {
      const op = doc.webhooks[t.type].post
      const names = op.parameters.map((p: { $ref: string }) => doc.components.parameters[p.$ref.split('/').pop()!].name)
      for (const n of ['Svc-Status-Signature', 'webhook-id', 'webhook-timestamp', 'webhook-signature']) assert.ok(names.includes(n), `${t.type} ${n}`)
      const envelope = doc.components.schemas[op.requestBody.content['application/json'].schema.$ref.split('/').pop()]
      assert.deepEqual(envelope.required, ['id', 'type', 'created_at', 'workspace_id', 'livemode', 'api_version', 'data'])
      assert.deepEqual(envelope.properties.type.enum, [t.type])
      assert.ok(envelope.properties.data.properties.object)
      assert.ok(op.responses['2XX'])
    }
  })

  it('serves an HTML reference page per operation, an index and a page per error code', async () => {
    const index = await h.request({ method: 'GET', url: '/v2/api-docs', key: null })
    assert.equal(index.statusCode, 200)
    assert.match(String(index.headers['content-type']), /text\/html/)
    for (const r of implemented) {
      const res = await h.request({ method: 'GET', url: `/v2/api-docs/${r.module}/${r.operationId}`, key: null })
      assert.equal(res.statusCode, 200, `${r.module}/${r.operationId}`)
      assert.match(res.body, new RegExp(r.operationId))
      assert.ok(res.body.includes(r.scope))
      assert.ok(index.body.includes(`api-docs/${r.module}/${r.operationId}`))
    }
    const unknown = await h.request({ method: 'GET', url: '/v2/api-docs/inbox/doesNotExist', key: null })
    assert.equal(unknown.statusCode, 404)
    const wrongModule = await h.request({ method: 'GET', url: '/v2/api-docs/bots/getCurrentWorkspace', key: null })
    assert.equal(wrongModule.statusCode, 404)
    // Every problem `type` resolves to a page.
    const p = json(await h.request({ method: 'GET', url: '/v2/workspaces/current', key: null }))
    const page = await h.request({ method: 'GET', url: new URL(p.type).pathname, key: null })
    assert.equal(page.statusCode, 200)
    assert.match(page.body, /unauthorized/)
  })
})
