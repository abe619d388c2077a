import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, ok, type TestApp } from '../../../../../test/helpers.js'
import { freePort } from '../../../../../test/spawn.js'

const list = (h: TestApp, query = '', key?: string) => h.request({ method: 'GET', url: `/v2/sandbox-workspaces${query}`, ...(key ? { key } : {}) })
const create = (h: TestApp, name: string, key?: string) => h.request({ method: 'POST', url: '/v2/sandbox-workspaces', payload: { name }, ...(key ? { key } : {}) })

// Two sandboxes seeded (their jobs drained), a third left seeding.
describe('listSandboxWorkspaces (GET /sandbox-workspaces)', () => {
  let h: TestApp
  const made: any[] = []
  before(async () => {
    // Listening on PUBLIC_URL: the seeded webhook endpoint's deliveries reach this server's own Playground.
    const port = await freePort()
    h = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    made.push(await ok(create(h, 'Ready one'), 202))
    made.push(await ok(create(h, 'Ready two'), 202))
    await h.drainJobs()
    made.push(await ok(create(h, 'Still seeding'), 202))
  })
  after(() => h.close())

  it('lists newest first with status and seeded counts, never the key', async () => {
    const all = await ok(list(h))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((s: any) => [s.id, s.name, s.status]),
      [
        [made[2].id, 'Still seeding', 'seeding'],
        [made[1].id, 'Ready two', 'ready'],
        [made[0].id, 'Ready one', 'ready'],
      ],
    )
    assert.equal(all.data[1].seeded.conversations, 3)
    assert.equal(all.data[0].seeded.conversations, 0)
    assert.equal(all.data[0].workspace_id, made[2].workspace_id)
    for (const s of made) assert.ok(!JSON.stringify(all).includes(s.test_key), 'the key is shown once, at creation')
    assert.deepEqual((await ok(list(h, '', h.b.live))).data, [], "another workspace's list is its own")
  })

  it('filters by status and pages with cursors', async () => {
    assert.deepEqual(
      (await ok(list(h, '?status=ready'))).data.map((s: any) => s.id),
      [made[1].id, made[0].id],
    )
    assert.deepEqual(
      (await ok(list(h, '?status=seeding'))).data.map((s: any) => s.id),
      [made[2].id],
    )
    assert.deepEqual((await ok(list(h, '?status=failed'))).data, [])
    const first = await ok(list(h, '?limit=2'))
    assert.deepEqual(
      first.data.map((s: any) => s.id),
      [made[2].id, made[1].id],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(list(h, `?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((s: any) => s.id),
      [made[0].id],
    )
  })

  it('bad queries are 422 problems; the read scope is required', async () => {
    assertProblem(await list(h, '?status=archived'), 422, 'validation_failed')
    assertProblem(await list(h, '?limit=0'), 422, 'validation_failed')
    assertProblem(await list(h, '?cursor=garbage'), 422, 'invalid_cursor')
    assertProblem(await list(h, '', await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
