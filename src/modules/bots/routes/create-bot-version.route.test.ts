import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, events, get, newBot, ok, patch, post } from '../bots.testkit.js'

// publish-bot.route.test.ts follows versions through publish and rollback; this file holds the freeze itself.
describe('createBotVersion (POST /bots/{id}/versions)', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('freezes the draft into the next numbered version, not live until published', async () => {
    const bot = await newBot(h, { instructions: 'Frozen words.' })
    await ok(patch(h, `/bots/${bot.id}/guardrails`, { blocked_terms: ['voucher'] }))
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'Launch' }), 201)
    assert.match(v1.id, /^bver_/)
    assert.equal(v1.object, 'bot_version')
    assert.equal(v1.bot_id, bot.id)
    assert.equal(v1.number, 1)
    assert.equal(v1.note, 'Launch')
    assert.equal(v1.live, false)
    assert.equal(v1.author.type, 'api_key')
    assert.equal(v1.config.instructions, 'Frozen words.')
    assert.deepEqual(v1.config.guardrails.blocked_terms, ['voucher'])
    assert.equal((await ok(get(h, `/bots/${bot.id}`))).status, 'draft', 'a version alone does not publish')
    await ok(patch(h, `/bots/${bot.id}`, { instructions: 'Later words.' }))
    const v2 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    assert.equal(v2.number, 2)
    assert.equal(v2.note, null)
    assert.equal(v2.config.instructions, 'Later words.')
    assert.ok((await events(h, 'bot_version.created')).some((e) => e.id === v1.id && e.number === 1))
  })

  it('an archived bot is 409; a bad note is 422; another workspace is 404; bots:write is required', async () => {
    const bot = await newBot(h)
    assertProblem(await post(h, `/bots/${bot.id}/versions`, { note: 'n'.repeat(501) }), 422, 'validation_failed')
    assertProblem(await post(h, `/bots/${bot.id}/versions`, { version: 3 }), 422, 'validation_failed')
    assertProblem(await post(h, `/bots/${bot.id}/versions`, {}, { key: h.b.live }), 404, 'resource_not_found')
    assertProblem(await post(h, `/bots/${bot.id}/versions`, {}, { key: await h.key(['bots:read']) }), 403, 'insufficient_scope')
    await ok(patch(h, `/bots/${bot.id}`, { archived: true }))
    assertProblem(await post(h, `/bots/${bot.id}/versions`), 409, 'bot_archived')
    assert.equal((await ok(get(h, `/bots/${bot.id}/versions`))).data.length, 0, 'refused requests froze nothing')
  })
})
