import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, get, leadsApp, ok, patch, post } from '../leads.testkit.js'

describe('listLeads (GET /leads)', () => {
  let h: TestApp
  const l: Record<string, any> = {}
  before(async () => {
    h = await leadsApp()
    // Scores: plain 20 (email), rich 55 (email, phone, company, executive title), conv from a conversation.
    l.plain = await ok(post(h, '/leads', { name: 'Plain', email: 'plain@example.com' }), 201)
    l.rich = await ok(post(h, '/leads', { name: 'Rich', email: 'rich@example.com', phone: '+1 202 555 0143', company: 'Big Co', title: 'CEO' }), 201)
    const conv = await ok(post(h, '/inbox/conversations', { channel: 'api', contact: { name: 'Conv', email: 'conv@example.com' }, message: { content: 'Hello' } }), 201)
    l.conv = await ok(post(h, '/leads', { source_id: conv.id }), 201)
    await ok(post(h, `/leads/${l.plain.id}/status`, { status: 'contacted' }))
    await ok(post(h, '/leads', { name: 'Theirs', email: 'theirs@example.com' }, { key: h.b.live }), 201)
  })
  after(() => h.close())

  const ids = async (q: string) => (await ok(get(h, `/leads${q}`))).data.map((x: any) => x.id)

  it('lists newest first, a page at a time, only this workspace', async () => {
    const all = await ok(get(h, '/leads'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((x: any) => x.name),
      ['Conv', 'Rich', 'Plain'],
    )
    const first = await ok(get(h, '/leads?limit=2'))
    assert.deepEqual(
      first.data.map((x: any) => x.id),
      [l.conv.id, l.rich.id],
    )
    assert.equal(first.has_more, true)
    assert.deepEqual(await ids(`?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`), [l.plain.id])
    assert.deepEqual(
      (await ok(get(h, '/leads', h.b.live))).data.map((x: any) => x.name),
      ['Theirs'],
    )
  })

  it('filters by status, source, email (any case), score range and updated_after', async () => {
    assert.deepEqual(await ids('?status=contacted'), [l.plain.id])
    assert.deepEqual(await ids('?status=new'), [l.conv.id, l.rich.id])
    assert.deepEqual(await ids('?source=conversation'), [l.conv.id])
    assert.deepEqual(await ids('?source=api'), [l.rich.id, l.plain.id])
    assert.deepEqual(await ids(`?email=${encodeURIComponent('RICH@Example.com')}`), [l.rich.id])
    assert.deepEqual(await ids('?min_score=55'), [l.rich.id])
    assert.deepEqual(await ids('?max_score=20&source=api'), [l.plain.id])
    assert.deepEqual(await ids('?owner_id=mem_00000000000000000000000000'), [])
    const touched = await ok(patch(h, `/leads/${l.rich.id}`, { title: 'Chief Executive Officer' }))
    const since = await ids(`?updated_after=${encodeURIComponent(new Date(Date.parse(touched.updated_at) - 1).toISOString())}`)
    assert.ok(since.includes(l.rich.id))
    assert.deepEqual(await ids(`?updated_after=${encodeURIComponent(new Date(Date.parse(touched.updated_at) + 60_000).toISOString())}`), [])
    // An instant is an instant however it is written: at +01:00, or to the second without milliseconds.
    const at = Date.parse(touched.updated_at)
    assert.ok((await ids(`?updated_after=${encodeURIComponent(new Date(at - 1 + 3_600_000).toISOString().replace('Z', '+01:00'))}`)).includes(l.rich.id))
    assert.ok((await ids(`?updated_after=${encodeURIComponent(new Date(Math.floor((at - 1) / 1000) * 1000).toISOString().replace('.000Z', 'Z'))}`)).includes(l.rich.id))
    assert.ok(!(await ids(`?updated_after=${encodeURIComponent(new Date(at + 3_600_000).toISOString().replace('Z', '+01:00'))}`)).includes(l.rich.id))
  })

  it('bad queries are 422 problems; leads:read is required', async () => {
    assertProblem(await get(h, '/leads?status=hot'), 422, 'validation_failed')
    assertProblem(await get(h, '/leads?min_score=101'), 422, 'validation_failed')
    assertProblem(await get(h, '/leads?updated_after=yesterday'), 422, 'validation_failed')
    assertProblem(await get(h, '/leads?cursor=garbage'), 422, 'invalid_cursor')
    const page = await ok(get(h, '/leads?limit=1'))
    assertProblem(await get(h, `/leads?status=new&cursor=${encodeURIComponent(page.next_cursor)}`), 422, 'invalid_cursor')
    assertProblem(await get(h, '/leads', await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
