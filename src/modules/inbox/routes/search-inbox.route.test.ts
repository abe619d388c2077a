import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, sendMessage } from '../inbox.testkit.js'

describe('searchInbox (GET /inbox/search)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const search = async (q: string, extra = '', key?: string) => {
    const r = await h.request({ method: 'GET', url: `/v2/inbox/search?q=${encodeURIComponent(q)}${extra}`, ...(key ? { key } : {}) })
    assert.equal(r.statusCode, 200, r.body)
    return json(r)
  }

  it('finds messages (every word, the last as a prefix, any case and language), newest first, with snippets', async () => {
    const a = await createConversation(h, { subject: 'Billing', message: { content: 'Die Rechnung für November fehlt noch.' } })
    const b = await createConversation(h, { message: { content: 'My invoice for November is wrong <b>again</b>' } })
    const later = json(await sendMessage(h, a.id, { content: 'The November invoice arrived, thanks!', direction: 'inbound' }))
    const r = await search('novem')
    assert.deepEqual(
      r.data.map((x: any) => x.message.content),
      ['The November invoice arrived, thanks!', 'My invoice for November is wrong <b>again</b>', 'Die Rechnung für November fehlt noch.'],
    )
    assert.equal(r.data[0].message.id, later.id)
    assert.equal(r.data[0].object, 'inbox_search_result')
    assert.equal(r.data[0].conversation.id, a.id)
    assert.equal(r.data[1].conversation.id, b.id)
    assert.equal(r.data[0].snippet, 'The <mark>November</mark> invoice arrived, thanks!')
    assert.match(r.data[1].snippet, /&#60;b&#62;again&#60;\/b&#62;/, 'the snippet is HTML-escaped')
    assert.deepEqual((await search('INVOICE november')).data.map((x: any) => x.message.id).length, 2)
    assert.equal((await search('rechnung FÜR')).data[0].conversation.id, a.id)
    assert.deepEqual((await search('invoice missing')).data, [], 'every word must match')
  })

  it('finds conversations by subject, contact name and e-mail (message null)', async () => {
    const c = await createConversation(h, { subject: 'Refund request', contact: { name: 'Grace Hopper', email: 'grace@navy.example' } })
    for (const q of ['refund', 'hopper', 'grace@navy.example', 'navy']) {
      const r = await search(q)
      const hit = r.data.find((x: any) => x.conversation.id === c.id)
      assert.ok(hit, q)
      assert.equal(hit.message, null)
    }
    await h.request({ method: 'PATCH', url: `/v2/inbox/conversations/${c.id}`, payload: { subject: 'Exchange request' } })
    assert.ok(!(await search('refund')).data.some((x: any) => x.conversation.id === c.id), 'a changed subject is reindexed')
    assert.ok((await search('exchange')).data.some((x: any) => x.conversation.id === c.id))
  })

  it('pages with a cursor bound to the query, and shows nothing of another workspace', async () => {
    const c = await createConversation(h, {})
    for (let i = 0; i < 5; i++) await sendMessage(h, c.id, { content: `zebra crossing number ${i}` })
    const first = await search('zebra', '&limit=2')
    assert.equal(first.data.length, 2)
    const seen = first.data.map((x: any) => x.message.content)
    let cursor = first.next_cursor
    while (cursor) {
      const page = await search('zebra', `&limit=2&cursor=${cursor}`)
      seen.push(...page.data.map((x: any) => x.message.content))
      cursor = page.next_cursor
    }
    assert.deepEqual(
      seen,
      [4, 3, 2, 1, 0].map((i) => `zebra crossing number ${i}`),
    )
    assertProblem(await h.request({ method: 'GET', url: `/v2/inbox/search?q=crossing&limit=2&cursor=${first.next_cursor}` }), 422, 'invalid_cursor')
    assert.deepEqual((await search('zebra', '', h.b.live)).data, [])
  })

  it('pages the same whether a word is rare or common across workspaces (the rare path checks only its own matches)', async () => {
    // 130 matches in the other workspace and 3 here: more than the rare path's 100 in all, so this tenant's
    // postings are walked; the same query's later pages and a word only the other workspace holds stay apart.
    const other = await createConversation(h, {}, h.b.live)
    for (let i = 0; i < 130; i++) {
      const r = await h.request({ method: 'POST', url: `/v2/inbox/conversations/${other.id}/messages`, payload: { content: `walrus tusk ${i}` }, key: h.b.live })
      assert.equal(r.statusCode, 201, r.body)
    }
    const mine = await createConversation(h, {})
    for (let i = 0; i < 3; i++) await sendMessage(h, mine.id, { content: `walrus here ${i}` })
    const seen: string[] = []
    let page = await search('walrus', '&limit=2')
    for (;;) {
      seen.push(...page.data.map((x: any) => x.message.content))
      if (!page.next_cursor) break
      page = await search('walrus', `&limit=2&cursor=${page.next_cursor}`)
    }
    assert.deepEqual(seen, ['walrus here 2', 'walrus here 1', 'walrus here 0'])
    assert.deepEqual((await search('tusk')).data, [], "only the other workspace's documents hold the word")
    assert.equal((await search('tusk', '&limit=100', h.b.live)).data.length, 100)
    assert.deepEqual(
      (await search('here 1')).data.map((x: any) => x.message.content),
      ['walrus here 1'],
    )
  })

  it('answers 422 for a query without a word, and validates q', async () => {
    const r = await h.request({ method: 'GET', url: '/v2/inbox/search?q=%2B%2B%2B' })
    assertProblem(r, 422, 'validation_failed')
    assert.equal(json(r).errors[0].pointer, '/query/q')
    assertProblem(await h.request({ method: 'GET', url: '/v2/inbox/search' }), 422, 'validation_failed')
  })

  it('requires a key with conversations:read', async () => {
    await assertAuthRequired(h, { method: 'GET', url: '/v2/inbox/search?q=x' })
  })
})
