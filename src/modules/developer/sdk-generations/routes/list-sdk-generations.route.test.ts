import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, ok } from '../../../../../test/helpers.js'
import { sdkApp, type SdkApp } from '../sdk-generations.testkit.js'

const list = (h: SdkApp, query = '', key?: string) => h.request({ method: 'GET', url: `/v2/sdk-generations${query}`, ...(key ? { key } : {}) })
const create = (h: SdkApp, payload: object, key?: string) => h.request({ method: 'POST', url: '/v2/sdk-generations', payload, ...(key ? { key } : {}) })

// The generations stay queued (no job is run): listing is what is tested here; create-sdk-generation.route.test.ts
// follows them through the job to the archive.
describe('listSdkGenerations (GET /sdk-generations)', () => {
  let h: SdkApp
  const made: any[] = []
  before(async () => {
    h = await sdkApp()
    for (const body of [
      { language: 'node', package_name: 'acme-node' },
      { language: 'python', package_name: 'acme-py' },
      { language: 'node', package_name: 'acme-node-two' },
    ]) {
      made.push(await ok(create(h, body), 202))
      h.clock.advance(1000)
    }
    await ok(create(h, { language: 'ruby' }, h.b.live), 202)
  })
  after(() => h.close())

  it('lists newest first with what each was asked for, a page at a time, only this workspace and mode', async () => {
    const all = await ok(list(h))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((g: any) => [g.language, g.package_name, g.status]),
      [
        ['node', 'acme-node-two', 'queued'],
        ['python', 'acme-py', 'queued'],
        ['node', 'acme-node', 'queued'],
      ],
    )
    assert.ok(all.data.every((g: any) => g.archive === null && g.document_sha256 === made[0].document_sha256))
    const first = await ok(list(h, '?limit=2'))
    assert.deepEqual(
      first.data.map((g: any) => g.id),
      [made[2].id, made[1].id],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(list(h, `?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((g: any) => g.id),
      [made[0].id],
    )
    assert.equal(rest.has_more, false)
    assert.deepEqual(
      (await ok(list(h, '', h.b.live))).data.map((g: any) => g.language),
      ['ruby'],
    )
    assert.deepEqual((await ok(h.request({ method: 'GET', url: '/sandbox/v2/sdk-generations', key: h.a.test }))).data, [])
  })

  it('filters by language and status', async () => {
    assert.deepEqual(
      (await ok(list(h, '?language=node'))).data.map((g: any) => g.id),
      [made[2].id, made[0].id],
    )
    assert.deepEqual(
      (await ok(list(h, '?language=python&status=queued'))).data.map((g: any) => g.id),
      [made[1].id],
    )
    assert.deepEqual((await ok(list(h, '?status=succeeded'))).data, [])
    assert.deepEqual((await ok(list(h, '?language=php'))).data, [])
  })

  it('bad queries are 422 problems; the read scope is required', async () => {
    assertProblem(await list(h, '?language=cobol'), 422, 'validation_failed')
    assertProblem(await list(h, '?status=done'), 422, 'validation_failed')
    assertProblem(await list(h, '?cursor=garbage'), 422, 'invalid_cursor')
    const page = await ok(list(h, '?limit=1'))
    assertProblem(await list(h, `?language=python&cursor=${encodeURIComponent(page.next_cursor)}`), 422, 'invalid_cursor')
    assertProblem(await list(h, '', await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
