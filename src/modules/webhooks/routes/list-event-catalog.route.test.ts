import assert from 'node:assert/strict'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { Ajv } from 'ajv'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'

const MODULES_DIR = new URL('../../', import.meta.url).pathname

function sources(dir: string, out: string[] = []): string[] {
  for (const name of readdirSync(dir)) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) sources(p, out)
    else if (name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.endsWith('.testkit.ts')) out.push(p)
  }
  return out
}

/** Every `events.emit(tx, tenant, '<type>', …)` in the modules' source. */
function emittedTypes(): { file: string; type: string }[] {
  const found: { file: string; type: string }[] = []
  for (const file of sources(MODULES_DIR)) {
    const text = readFileSync(file, 'utf8')
    for (const m of text.matchAll(/\.emit\(\s*[^,()]+,\s*[^,()]+,\s*(['"`])([^'"`]+)\1/g)) found.push({ file: file.slice(MODULES_DIR.length), type: m[2] })
  }
  return found
}

describe('listEventCatalog', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('lists every declared event type with module, description, JSON Schema and example', async () => {
    const r = await h.request({ method: 'GET', url: '/v2/events?limit=100' })
    assert.equal(r.statusCode, 200, r.body)
    const list = json(r)
    assert.deepEqual(
      list.data.map((t: any) => t.type),
      h.app.kernel.events.catalog().map((t) => t.type),
    )
    assert.ok(!r.body.includes('"$id"'), 'schemas carry no short $id that would collide in one validator')
    const test = list.data.find((t: any) => t.type === 'webhook.test')
    assert.equal(test.module, 'webhooks')
    assert.equal(test.schema.type, 'object')
    assert.ok(test.description.length > 10)
    assert.ok(list.data.some((t: any) => t.type === 'webhook_endpoint.disabled'))
  })

  it('has an example that validates against its schema for every type', async () => {
    for (const t of json(await h.request({ method: 'GET', url: '/v2/events?limit=100' })).data) {
      const ajv = new Ajv({ strict: false }) // one per type: schemas may share an $id
      assert.ok(ajv.validate(t.schema, t.example), `${t.type}: ${ajv.errorsText()}`)
    }
  })

  it('fails when a module emits a type that is not in the catalog', () => {
    const emitted = emittedTypes()
    assert.ok(
      emitted.some((e) => e.type === 'webhook.test'),
      'the scan finds emits',
    )
    const undeclared = emitted.filter((e) => !h.app.kernel.events.isDeclared(e.type))
    assert.deepEqual(undeclared, [], 'declare these with kernel.events.declare (description, module, schema, example)')
  })

  it('refuses to emit an undeclared type: at compile time, and at run time', async () => {
    const { kernel } = h.app
    await assert.rejects(
      // @ts-expect-error emit() accepts only declared types (tsc proves it: this line would not compile without the directive)
      kernel.transaction(null, (tx) => kernel.events.emit(tx, { workspaceId: h.a.workspaceId, mode: 'live' }, 'no.such_type', {})),
      /not in the catalog/,
    )
  })

  it('pages with a cursor', async () => {
    const p1 = json(await h.request({ method: 'GET', url: '/v2/events?limit=1' }))
    assert.equal(p1.data.length, 1)
    assert.equal(p1.has_more, true)
    const p2 = json(await h.request({ method: 'GET', url: `/v2/events?limit=1&cursor=${p1.next_cursor}` }))
    assert.ok(p2.data[0].type > p1.data[0].type)
  })

  it('needs webhooks:read', async () => {
    assert.equal((await h.request({ method: 'GET', url: '/v2/events', key: null })).statusCode, 401)
    const other = await h.key(['bots:read'])
    assert.equal((await h.request({ method: 'GET', url: '/v2/events', key: other })).statusCode, 403)
  })
})
