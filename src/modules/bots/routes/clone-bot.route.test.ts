import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, botsApp, get, newBot, ok, patch, post } from '../bots.testkit.js'

describe('cloneBot (POST /bots/{id}/clone)', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('copies the draft with its guardrails and tools into an independent new draft', async () => {
    const bot = await newBot(h, { name: 'Original', instructions: 'Original rules.' })
    await ok(h.request({ method: 'PATCH', url: `/v2/bots/${bot.id}/guardrails`, payload: { blocked_terms: ['competitor'] } }))
    await ok(post(h, `/bots/${bot.id}/tools`, { type: 'builtin', name: 'handoff_to_human' }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    const copy = await ok(post(h, `/bots/${bot.id}/clone`), 201)
    assert.notEqual(copy.id, bot.id)
    assert.equal(copy.name, 'Original (copy)')
    assert.equal(copy.status, 'draft')
    assert.equal(copy.version_count, 0)
    assert.equal(copy.instructions, 'Original rules.')
    assert.deepEqual((await ok(get(h, `/bots/${copy.id}/guardrails`))).blocked_terms, ['competitor'])
    const tools = (await ok(get(h, `/bots/${copy.id}/tools`))).data
    assert.deepEqual(
      tools.map((t: any) => t.name),
      ['handoff_to_human'],
    )
    const originalTools = (await ok(get(h, `/bots/${bot.id}/tools`))).data
    assert.notEqual(tools[0].id, originalTools[0].id)
    assert.deepEqual((await ok(get(h, `/bots/${copy.id}/versions`))).data, [])
    // Independence: editing the copy leaves the original alone.
    await ok(patch(h, `/bots/${copy.id}`, { instructions: 'Copy rules.' }))
    assert.equal((await ok(get(h, `/bots/${bot.id}`))).instructions, 'Original rules.')
  })

  it('clones a named version instead of the draft', async () => {
    const bot = await newBot(h, { instructions: 'Old rules.' })
    const v1 = await ok(post(h, `/bots/${bot.id}/versions`), 201)
    await ok(patch(h, `/bots/${bot.id}`, { instructions: 'New rules.' }))
    const copy = await ok(post(h, `/bots/${bot.id}/clone`, { name: 'From v1', version_id: v1.id }), 201)
    assert.equal(copy.name, 'From v1')
    assert.equal(copy.instructions, 'Old rules.')
    const other = await newBot(h)
    const foreign = await ok(post(h, `/bots/${other.id}/versions`), 201)
    assertProblem(await post(h, `/bots/${bot.id}/clone`, { version_id: foreign.id }), 422, 'invalid_reference')
    assertProblem(await post(h, `/bots/${bot.id}/clone`, {}, { key: h.b.live }), 404)
  })
})
