import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem } from '../inbox.testkit.js'

describe('createInboxTag (POST /inbox/tags)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const create = (payload: Record<string, unknown>, key?: string) => h.request({ method: 'POST', url: '/v2/inbox/tags', payload, ...(key ? { key } : {}) })

  it('creates a tag with a colour (default grey)', async () => {
    const r = await create({ name: 'Billing', color: '#22C55E' })
    assert.equal(r.statusCode, 201, r.body)
    assert.match(json(r).id, /^tag_[0-9A-Z]{26}$/)
    assert.equal(json(r).color, '#22c55e')
    assert.equal(json(await create({ name: 'Plain' })).color, '#6b7280')
  })

  it('answers 409 tag_already_exists for the same name in any case, but not in another workspace', async () => {
    await create({ name: 'Urgent' })
    assertProblem(await create({ name: 'URGENT' }), 409, 'tag_already_exists')
    assert.equal((await create({ name: 'urgent' }, h.b.live)).statusCode, 201)
  })

  it('rejects empty or padded names and bad colours with 422', async () => {
    for (const payload of [{}, { name: '' }, { name: ' x' }, { name: 'x'.repeat(51) }, { name: 'ok', color: 'green' }, { name: 'ok', color: '#fff' }]) {
      assertProblem(await create(payload), 422, 'validation_failed')
    }
  })

  it('requires a key with messages:write', async () => {
    await assertAuthRequired(h, { method: 'POST', url: '/v2/inbox/tags', payload: { name: 'x' } })
  })
})
