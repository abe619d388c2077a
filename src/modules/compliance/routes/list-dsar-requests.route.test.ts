import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, get, ok, post, type ComplianceApp } from '../compliance.testkit.js'

describe('listDsarRequests (GET /compliance/dsar)', () => {
  let h: ComplianceApp
  const ids: Record<string, string> = {}
  before(async () => {
    h = await complianceApp()
    ids.access = (await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'a@example.com' } }), 201)).id
    await h.drainJobs()
    h.clock.advance(1000)
    ids.erasure = (await ok(post(h, '/compliance/dsar', { type: 'erasure', subject: { email: 'e@example.com' } }), 201)).id
    h.clock.advance(1000)
    ids.rectification = (await ok(post(h, '/compliance/dsar', { type: 'rectification', subject: { email: 'r@example.com' }, changes: { name: 'R' } }), 201)).id
    await ok(post(h, '/compliance/dsar', { type: 'access', subject: { email: 'theirs@example.com' } }, { key: h.b.live }), 201)
  })
  after(() => h.close())

  it('lists newest first, a page at a time, only this workspace', async () => {
    const all = await ok(get(h, '/compliance/dsar'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((d: any) => d.id),
      [ids.rectification, ids.erasure, ids.access],
    )
    const first = await ok(get(h, '/compliance/dsar?limit=2'))
    assert.deepEqual(
      first.data.map((d: any) => d.id),
      [ids.rectification, ids.erasure],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/compliance/dsar?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((d: any) => d.id),
      [ids.access],
    )
    assert.equal(rest.has_more, false)
    assert.deepEqual(
      (await ok(get(h, '/compliance/dsar', h.b.live))).data.map((d: any) => d.subject.email),
      ['theirs@example.com'],
    )
  })

  it('filters by type and status', async () => {
    for (const type of ['access', 'erasure', 'rectification'])
      assert.deepEqual(
        (await ok(get(h, `/compliance/dsar?type=${type}`))).data.map((d: any) => d.id),
        [ids[type]],
        type,
      )
    assert.deepEqual(
      (await ok(get(h, '/compliance/dsar?status=completed'))).data.map((d: any) => d.id),
      [ids.access],
    )
    assert.deepEqual((await ok(get(h, '/compliance/dsar?status=received&type=access'))).data, [])
  })

  it('bad queries are 422 problems; the read scope is required', async () => {
    assertProblem(await get(h, '/compliance/dsar?type=deletion'), 422, 'validation_failed')
    assertProblem(await get(h, '/compliance/dsar?status=done'), 422, 'validation_failed')
    assertProblem(await get(h, '/compliance/dsar?cursor=garbage'), 422, 'invalid_cursor')
    assertProblem(await get(h, '/compliance/dsar', await h.key(['leads:read'])), 403, 'insufficient_scope')
  })
})
