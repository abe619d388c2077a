import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, ok, patch, post } from '../bots.testkit.js'

describe('getBot (GET /bots/{id})', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('answers the draft it was given, its status and whether it differs from the live version', async () => {
    const bot = await newBot(h, { name: 'Returns desk', instructions: 'Answer about returns only.', handoff: { confidence_threshold: 0.7 } })
    const got = await ok(get(h, `/bots/${bot.id}`))
    assert.match(got.id, /^bot_/)
    assert.equal(got.object, 'bot')
    assert.equal(got.name, 'Returns desk')
    assert.equal(got.instructions, 'Answer about returns only.')
    assert.equal(got.handoff.confidence_threshold, 0.7)
    assert.equal(got.status, 'draft')
    assert.equal(got.published_version_id, null)
    assert.equal(got.version_count, 0)
    const live = await ok(post(h, `/bots/${bot.id}/publish`))
    const published = await ok(get(h, `/bots/${bot.id}`))
    assert.equal(published.status, 'published')
    assert.equal(published.published_version_id, live.published_version_id)
    assert.equal(published.has_unpublished_changes, false)
    await ok(patch(h, `/bots/${bot.id}`, { instructions: 'Answer about returns and refunds.' }))
    assert.equal((await ok(get(h, `/bots/${bot.id}`))).has_unpublished_changes, true)
  })

  it("another workspace's bot and an unknown id are 404; an over-long id is 422; bots:read is required", async () => {
    const bot = await newBot(h)
    assertProblem(await get(h, `/bots/${bot.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/bots/bot_01JD0000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/bots/${'x'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/bots/${bot.id}`, await h.key(['inbox:read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, `/bots/${bot.id}`, await h.key(['bots:read'])))).id, bot.id)
  })
})
