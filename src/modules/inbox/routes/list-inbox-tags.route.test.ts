import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createTag } from '../inbox.testkit.js'

describe('listInboxTags (GET /inbox/tags)', () => {
  let h: TestApp
  const ids: string[] = []
  before(async () => {
    h = await createTestApp()
    for (const name of ['a', 'b', 'c']) ids.push((await createTag(h, name)).id)
  })
  after(() => h.close())

  it('pages newest first', async () => {
    const first = json(await h.request({ method: 'GET', url: '/v2/inbox/tags?limit=2' }))
    const second = json(await h.request({ method: 'GET', url: `/v2/inbox/tags?limit=2&cursor=${first.next_cursor}` }))
    assert.deepEqual(
      [...first.data, ...second.data].map((t: { id: string }) => t.id),
      [...ids].reverse(),
    )
    assert.equal(second.has_more, false)
  })

  it('rejects a cursor from another list with 422 and shows other workspaces nothing', async () => {
    await h.request({ method: 'POST', url: '/v2/inbox/templates', payload: { name: 'x', content: 'y' } })
    await h.request({ method: 'POST', url: '/v2/inbox/templates', payload: { name: 'z', content: 'y' } })
    const templates = json(await h.request({ method: 'GET', url: '/v2/inbox/templates?limit=1' }))
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/tags?cursor=${templates.next_cursor}` }), 422, 'invalid_cursor')
    assert.deepEqual(json(await h.request({ method: 'GET', url: '/v2/inbox/tags', key: h.b.live })).data, [])
  })

  it('requires a key with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: '/v2/inbox/tags' })
  })
})

describe('listInboxTags with a forged cursor', () => {
  it('answers 422 invalid_cursor, not 5xx, for a cursor whose checksum is right but whose id is not an id', async () => {
    const { createHash } = await import('node:crypto')
    const h = await createTestApp()
    try {
      const k = 'tag_\u0000'
      const c = createHash('sha256').update(`listInboxTags\n${h.a.workspaceId}\nlive\n${k}`).digest('base64url').slice(0, 16)
      const cursor = Buffer.from(JSON.stringify({ k, c })).toString('base64url')
      assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/tags?cursor=${cursor}` }), 422, 'invalid_cursor')
    } finally {
      await h.close()
    }
  })
})
