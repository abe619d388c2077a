import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, ok, patch, post } from '../bots.testkit.js'

describe('listBots (GET /bots)', () => {
  let h: TestApp
  const made: Record<string, string> = {}
  before(async () => {
    h = await botsApp()
    made.draft = (await newBot(h, { name: 'Draft' })).id
    made.published = (await newBot(h, { name: 'Published' })).id
    await ok(post(h, `/bots/${made.published}/publish`))
    made.archived = (await newBot(h, { name: 'Archived' })).id
    await ok(patch(h, `/bots/${made.archived}`, { archived: true }))
    await newBot(h, { name: 'Elsewhere' }, h.b.live)
  })
  after(() => h.close())

  it('lists newest first, a page at a time, only this workspace', async () => {
    const all = await ok(get(h, '/bots'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((b: any) => b.name),
      ['Archived', 'Published', 'Draft'],
    )
    assert.equal(all.has_more, false)
    const first = await ok(get(h, '/bots?limit=2'))
    assert.deepEqual(
      first.data.map((b: any) => b.id),
      [made.archived, made.published],
    )
    assert.equal(first.has_more, true)
    const second = await ok(get(h, `/bots?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      second.data.map((b: any) => b.id),
      [made.draft],
    )
    assert.equal(second.has_more, false)
    assert.equal(second.next_cursor, null)
    assert.deepEqual(
      (await ok(get(h, '/bots', h.b.live))).data.map((b: any) => b.name),
      ['Elsewhere'],
    )
  })

  it('filters by status', async () => {
    for (const status of ['draft', 'published', 'archived']) {
      assert.deepEqual(
        (await ok(get(h, `/bots?status=${status}`))).data.map((b: any) => b.id),
        [made[status]],
        status,
      )
    }
  })

  it('bad queries are 422 problems; bots:read is required', async () => {
    assertProblem(await get(h, '/bots?status=deleted'), 422, 'validation_failed')
    assertProblem(await get(h, '/bots?limit=0'), 422, 'validation_failed')
    assertProblem(await get(h, '/bots?cursor=not-a-cursor'), 422, 'invalid_cursor')
    const page = await ok(get(h, '/bots?limit=1'))
    assertProblem(await get(h, `/bots?limit=1&status=draft&cursor=${encodeURIComponent(page.next_cursor)}`), 422, 'invalid_cursor')
    assertProblem(await get(h, '/bots', await h.key(['inbox:read'])), 403, 'insufficient_scope')
  })
})
