import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, ok, post } from '../bots.testkit.js'

describe('listBotVersions (GET /bots/{id}/versions)', () => {
  let h: TestApp
  let bot: any
  const versions: any[] = []
  before(async () => {
    h = await botsApp()
    bot = await newBot(h)
    for (const note of ['one', 'two', 'three']) versions.push(await ok(post(h, `/bots/${bot.id}/versions`, { note }), 201))
    await ok(post(h, `/bots/${bot.id}/publish`, { version_id: versions[1].id }))
  })
  after(() => h.close())

  it('lists newest first with the frozen configuration; `live` marks the published one', async () => {
    const list = await ok(get(h, `/bots/${bot.id}/versions`))
    assert.equal(list.object, 'list')
    assert.deepEqual(
      list.data.map((v: any) => [v.number, v.note, v.live]),
      [
        [3, 'three', false],
        [2, 'two', true],
        [1, 'one', false],
      ],
    )
    assert.ok(list.data.every((v: any) => v.bot_id === bot.id && typeof v.config.instructions === 'string'))
  })

  it('pages with limit and cursor', async () => {
    const first = await ok(get(h, `/bots/${bot.id}/versions?limit=2`))
    assert.deepEqual(
      first.data.map((v: any) => v.id),
      [versions[2].id, versions[1].id],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/bots/${bot.id}/versions?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((v: any) => v.id),
      [versions[0].id],
    )
    assert.equal(rest.has_more, false)
  })

  it("another workspace's bot is 404; bad queries are 422; bots:read is required", async () => {
    assertProblem(await get(h, `/bots/${bot.id}/versions`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/bots/bot_missing/versions'), 404, 'resource_not_found')
    assertProblem(await get(h, `/bots/${bot.id}/versions?limit=1000`), 422, 'validation_failed')
    assertProblem(await get(h, `/bots/${bot.id}/versions?cursor=garbage`), 422, 'invalid_cursor')
    assertProblem(await get(h, `/bots/${bot.id}/versions`, await h.key(['inbox:read'])), 403, 'insufficient_scope')
  })
})
