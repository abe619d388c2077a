import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { randomToken } from '../webhooks.testkit.js'

describe('captureWebhookPlaygroundGet', () => {
  let h: TestApp
  const clock = new ManualClock(Date.parse('2026-11-22T10:00:00Z'))
  before(async () => (h = await createTestApp({ clock })))
  after(() => h.close())

  it('records the GET without a key and lists the inbox newest first, itself included', async () => {
    const token = randomToken()
    await h.request({ method: 'POST', url: `/v2/webhooks/playground/${token}`, key: null, payload: 'first', headers: { 'content-type': 'text/plain' } })
    clock.advance(1000)
    const r = await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}?probe=1&probe=2`, key: null })
    assert.equal(r.statusCode, 200, r.body)
    const list = json(r)
    assert.equal(list.object, 'list')
    assert.deepEqual(
      list.data.map((c: any) => c.method),
      ['GET', 'POST'],
    )
    assert.deepEqual(list.data[0].query, { probe: ['1', '2'] })
    assert.equal(list.data[0].path, `/v2/webhooks/playground/${token}`)
    assert.equal(list.data[1].body, 'first')
    assert.equal(list.data[1].content_type, 'text/plain')
    assert.ok(list.data[0].source_ip)
  })

  it('pages with a cursor bound to the inbox', async () => {
    const token = randomToken()
    for (let i = 0; i < 3; i++) await h.request({ method: 'PUT', url: `/v2/webhooks/playground/${token}`, key: null, payload: { i } })
    const p1 = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}?limit=2`, key: null }))
    assert.equal(p1.has_more, true)
    const p2 = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}?limit=2&cursor=${p1.next_cursor}`, key: null }))
    assert.deepEqual(
      p2.data.map((c: any) => JSON.parse(c.body).i),
      [1, 0],
    )
    assert.equal(p2.has_more, false)
    const other = await h.request({ method: 'GET', url: `/v2/webhooks/playground/${randomToken()}?cursor=${p1.next_cursor}`, key: null })
    assert.equal(other.statusCode, 422)
  })

  it('keeps inboxes of the two base URLs apart', async () => {
    const token = randomToken()
    await h.request({ method: 'POST', url: `/sandbox/v2/webhooks/playground/${token}`, key: null, payload: {} })
    const live = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}`, key: null }))
    assert.deepEqual(
      live.data.map((c: any) => c.method),
      ['GET'],
    )
  })

  it('answers 404 (problem) for a malformed token', async () => {
    for (const token of ['short', 'x'.repeat(65), 'bad!token_with_22_chars_']) {
      const r = await h.request({ method: 'GET', url: `/v2/webhooks/playground/${encodeURIComponent(token)}`, key: null })
      assert.equal(r.statusCode, 404, token)
      assert.equal(json(r).code, 'playground_token_invalid')
      assert.match(String(r.headers['content-type']), /application\/problem\+json/)
    }
  })

  it('keeps at most 100 captures per inbox', async () => {
    const token = randomToken()
    for (let i = 0; i < 105; i++) await h.request({ method: 'POST', url: `/v2/webhooks/playground/${token}`, key: null, payload: { i } })
    const all = []
    let cursor = ''
    for (;;) {
      const p = json(await h.request({ method: 'GET', url: `/v2/webhooks/playground/${token}?limit=100${cursor}`, key: null }))
      all.push(...p.data)
      if (!p.has_more) break
      cursor = `&cursor=${p.next_cursor}`
    }
    assert.ok(all.length <= 101 && all.length >= 100, String(all.length))
    assert.ok(!all.some((c: any) => c.method === 'POST' && JSON.parse(c.body).i < 5), 'the oldest were dropped')
  })

  it('purges captures older than 24 hours (job, controllable clock)', async () => {
    const old = randomToken()
    const fresh = randomToken()
    await h.request({ method: 'POST', url: `/v2/webhooks/playground/${old}`, key: null, payload: { old: true } })
    clock.advance(12 * 3600_000)
    await h.request({ method: 'POST', url: `/v2/webhooks/playground/${fresh}`, key: null, payload: { fresh: true } })
    clock.advance(12 * 3600_000 + 3600_000 + 120_000) // past 24 h for `old`, and past its purge slot
    await h.app.kernel.jobs.drain()
    const count = async (token: string) =>
      Number(
        (
          await h.app.kernel.db
            .selectFrom('webhook_playground_captures')
            .select((eb) => eb.fn.countAll().as('n'))
            .where('token', '=', token)
            .executeTakeFirst()
        )?.n,
      )
    assert.equal(await count(old), 0, 'older than 24 h: purged')
    assert.equal(await count(fresh), 1, 'younger than 24 h: kept')
    clock.advance(12 * 3600_000 + 3600_000)
    await h.app.kernel.jobs.drain()
    assert.equal(await count(fresh), 0)
  })
})
