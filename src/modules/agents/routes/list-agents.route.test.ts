import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { createTestApp } from '../../../../test/helpers.js'
import { assertProblem, get, newAgent, ok, patch } from '../agents.testkit.js'

describe('listAgents (GET /agents)', () => {
  let h: TestApp
  const ids: string[] = []
  before(async () => {
    h = await createTestApp()
    for (const name of ['First', 'Second', 'Third']) ids.push((await newAgent(h, { name })).id)
    await ok(patch(h, `/agents/${ids[1]}`, { status: 'disabled' }))
    await newAgent(h, { name: 'Theirs' }, h.b.live)
  })
  after(() => h.close())

  it('lists newest first, a page at a time, only this workspace', async () => {
    const all = await ok(get(h, '/agents'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((a: any) => a.name),
      ['Third', 'Second', 'First'],
    )
    assert.ok(all.data.every((a: any) => a.signing_secret === undefined))
    const first = await ok(get(h, '/agents?limit=2'))
    assert.deepEqual(
      first.data.map((a: any) => a.id),
      [ids[2], ids[1]],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/agents?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((a: any) => a.id),
      [ids[0]],
    )
    assert.equal(rest.has_more, false)
    assert.deepEqual(
      (await ok(get(h, '/agents', h.b.live))).data.map((a: any) => a.name),
      ['Theirs'],
    )
  })

  it('filters active or disabled agents', async () => {
    assert.deepEqual(
      (await ok(get(h, '/agents?status=active'))).data.map((a: any) => a.id),
      [ids[2], ids[0]],
    )
    assert.deepEqual(
      (await ok(get(h, '/agents?status=disabled'))).data.map((a: any) => a.id),
      [ids[1]],
    )
  })

  it('bad queries are 422 problems; the read scope is required', async () => {
    assertProblem(await get(h, '/agents?status=paused'), 422, 'validation_failed')
    assertProblem(await get(h, '/agents?limit=101'), 422, 'validation_failed')
    assertProblem(await get(h, '/agents?cursor=garbage'), 422, 'invalid_cursor')
    assertProblem(await get(h, '/agents', await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
