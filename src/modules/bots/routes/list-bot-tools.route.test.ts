import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, ok, post } from '../bots.testkit.js'

const tool = (name: string) => ({
  type: 'http',
  name,
  description: `The ${name} tool.`,
  parameters: { type: 'object', properties: {} },
  url: 'http://127.0.0.1:9/tools',
  method: 'POST',
  headers: { 'X-Api-Token': 'sealed-header-value' },
})

describe('listBotTools (GET /bots/{id}/tools)', () => {
  let h: TestApp
  let bot: any
  const ids: string[] = []
  before(async () => {
    h = await botsApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    bot = await newBot(h)
    for (const name of ['lookup_order', 'cancel_order', 'track_parcel']) ids.push((await ok(post(h, `/bots/${bot.id}/tools`, tool(name)), 201)).id)
  })
  after(() => h.close())

  it('lists in attach order, with header names but never header values or signing secrets', async () => {
    const list = await ok(get(h, `/bots/${bot.id}/tools`))
    assert.equal(list.object, 'list')
    assert.deepEqual(
      list.data.map((t: any) => t.id),
      ids,
    )
    assert.deepEqual(
      list.data.map((t: any) => t.name),
      ['lookup_order', 'cancel_order', 'track_parcel'],
    )
    assert.ok(list.data.every((t: any) => t.bot_id === bot.id && t.signing_secret === undefined))
    assert.deepEqual(list.data[0].header_names, ['X-Api-Token'])
    assert.ok(!JSON.stringify(list).includes('sealed-header-value'))
  })

  it('pages with limit and cursor', async () => {
    const first = await ok(get(h, `/bots/${bot.id}/tools?limit=2`))
    assert.deepEqual(
      first.data.map((t: any) => t.id),
      ids.slice(0, 2),
    )
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/bots/${bot.id}/tools?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((t: any) => t.id),
      ids.slice(2),
    )
    assert.equal(rest.has_more, false)
  })

  it("another workspace's bot is 404; bad queries are 422; bots:read is required", async () => {
    assertProblem(await get(h, `/bots/${bot.id}/tools`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, `/bots/${bot.id}/tools?limit=-1`), 422, 'validation_failed')
    assertProblem(await get(h, `/bots/${bot.id}/tools?cursor=garbage`), 422, 'invalid_cursor')
    assertProblem(await get(h, `/bots/${bot.id}/tools`, await h.key(['inbox:read'])), 403, 'insufficient_scope')
  })
})
