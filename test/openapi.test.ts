import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
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
      assert.ok(implemented.some((r) => r.operationId === row.operationId), `${row.operationId} of module ${row.module} is missing`)
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
        assert.deepEqual(op.security, [{ bearerAuth: [row.scope] }], row.operationId)
        for (const code of ['401', '403', '422', '429', '500']) assert.ok(op.responses[code], `${row.operationId} lacks ${code}`)
      }
      assert.ok(Object.keys(op.responses).some((c) => c.startsWith('2')), `${row.operationId} has no success response`)
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
