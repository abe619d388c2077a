import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, events, get, newBot, ok, patch, post } from '../bots.testkit.js'

// publish-bot.route.test.ts checks that replies follow a rollback; this file holds the operation's own rules.
describe('rollbackBotVersion (POST /bots/{id}/versions/{run_id}/rollback)', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('makes an earlier version live at once and keeps the later ones', async () => {
    const bot = await newBot(h)
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'old' }), 201)
    const v2 = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'new' }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`, { version_id: v2.id }))
    const back = await ok(post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`))
    assert.equal(back.id, bot.id)
    assert.equal(back.status, 'published')
    assert.equal(back.published_version_id, v1.id)
    const list = await ok(get(h, `/bots/${bot.id}/versions`))
    assert.deepEqual(
      list.data.map((v: any) => [v.id, v.live]),
      [
        [v2.id, false],
        [v1.id, true],
      ],
    )
    const e = (await events(h, 'bot.rolled_back')).find((x) => x.bot_id === bot.id)
    assert.equal(e.version_id, v1.id)
    assert.equal(e.previous_version_id, v2.id)
  })

  it('refuses what is not a rollback: unpublished (409), live or later (409), archived (409), foreign (404)', async () => {
    const bot = await newBot(h)
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`), 409, 'bot_not_published')
    await ok(post(h, `/bots/${bot.id}/publish`, { version_id: v1.id }))
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`), 409, 'not_an_earlier_version')
    const other = await newBot(h)
    const foreign = await ok(post(h, `/bots/${other.id}/versions`), 201)
    assertProblem(await post(h, `/bots/${bot.id}/versions/${foreign.id}/rollback`), 404, 'resource_not_found')
    assertProblem(await post(h, `/bots/${bot.id}/versions/bver_missing/rollback`), 404, 'resource_not_found')
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`, {}, { key: h.b.live }), 404, 'resource_not_found')
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`, {}, { key: await h.key(['bots:read']) }), 403, 'insufficient_scope')
    const v2 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    await ok(post(h, `/bots/${bot.id}/publish`, { version_id: v2.id }))
    await ok(patch(h, `/bots/${bot.id}`, { archived: true }))
    assertProblem(await post(h, `/bots/${bot.id}/versions/${v1.id}/rollback`), 409, 'bot_archived')
  })
})
