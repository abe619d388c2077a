import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, get, ok, post, type TestApp } from '../../../../../test/helpers.js'

describe('listOpenApiSnapshots', () => {
  let h: TestApp
  const ids: string[] = []
  before(async () => {
    h = await createTestApp()
    for (const label of ['one', 'two', 'three']) ids.push((await ok(post(h, '/openapi-snapshots', { label }), 201)).id)
  })
  after(() => h.close())

  it('lists newest first, page by page, without documents', async () => {
    const first = await ok(get(h, '/openapi-snapshots?limit=2'))
    assert.deepEqual(
      first.data.map((s: any) => s.label),
      ['three', 'two'],
    )
    assert.ok(first.data.every((s: any) => !('document' in s)))
    assert.equal(first.has_more, true)
    const second = await ok(get(h, `/openapi-snapshots?limit=2&cursor=${first.next_cursor}`))
    assert.deepEqual(
      second.data.map((s: any) => s.label),
      ['one'],
    )
    assert.equal(second.has_more, false)
    assert.deepEqual(second.data[0].id, ids[0])
    assert.equal(first.data[0].previous_snapshot_id, ids[1])
  })

  it('id picks one snapshot; include=document adds its document, and needs id', async () => {
    const one = await ok(get(h, `/openapi-snapshots?id=${ids[1]}`))
    assert.deepEqual(
      one.data.map((s: any) => s.id),
      [ids[1]],
    )
    const withDoc = await ok(get(h, `/openapi-snapshots?id=${ids[1]}&include=document`))
    assert.equal(withDoc.data[0].document.openapi, '3.1.0')
    assert.ok(withDoc.data[0].document.paths['/openapi-snapshots'])
    const problem = await get(h, '/openapi-snapshots?include=document')
    assertProblem(problem, 422, 'validation_failed')
    assert.equal(JSON.parse(problem.body).errors[0].pointer, '/query/include')
    assertProblem(await get(h, '/openapi-snapshots?id=bot_1'), 422, 'validation_failed')
    assertProblem(await get(h, '/openapi-snapshots?include=everything'), 422, 'validation_failed')
  })

  it('another workspace and the sandbox see none of them, not even by id', async () => {
    assert.deepEqual((await ok(get(h, '/openapi-snapshots', h.b.live))).data, [])
    assert.deepEqual((await ok(get(h, `/openapi-snapshots?id=${ids[0]}&include=document`, h.b.live))).data, [])
    const sandbox = await ok(h.request({ method: 'GET', url: '/sandbox/v2/openapi-snapshots', key: h.a.test }))
    assert.deepEqual(sandbox.data, [])
  })

  it('a cursor of the list with other filters is refused', async () => {
    const page = await ok(get(h, '/openapi-snapshots?limit=1'))
    assertProblem(await get(h, `/openapi-snapshots?limit=1&id=${ids[0]}&cursor=${page.next_cursor}`), 422, 'invalid_cursor')
  })
})
