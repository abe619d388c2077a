import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createTemplate } from '../inbox.testkit.js'

describe('createReplyTemplate (POST /inbox/templates)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const create = (payload: Record<string, unknown>, key?: string) => h.request({ method: 'POST', url: '/v2/inbox/templates', payload, ...(key ? { key } : {}) })

  it('creates a template and lists the placeholders it uses', async () => {
    const t = await createTemplate(h, { name: 'Welcome', content: 'Hi {{contact.name}}, about {{ conversation.subject }}…', shortcut: 'welcome', language: 'en' })
    assert.match(t.id, /^tpl_[0-9A-Z]{26}$/)
    assert.deepEqual(t.placeholders, ['contact.name', 'conversation.subject'])
    assert.equal(t.shortcut, 'welcome')
    assert.equal(t.language, 'en')
  })

  it('answers 409 for a name used before (case-insensitively) or a taken shortcut', async () => {
    await createTemplate(h, { name: 'Refunds', content: 'x', shortcut: 'refund' })
    const byName = await create({ name: 'REFUNDS', content: 'y' })
    assertProblem(byName, 409, 'template_already_exists')
    assert.equal(json(byName).errors[0].pointer, '/body/name')
    const byShortcut = await create({ name: 'Refunds 2', content: 'y', shortcut: 'refund' })
    assertProblem(byShortcut, 409, 'template_already_exists')
    assert.equal(json(byShortcut).errors[0].pointer, '/body/shortcut')
    // Another workspace may use the same name.
    assert.equal((await create({ name: 'Refunds', content: 'x' }, h.b.live)).statusCode, 201)
  })

  it('rejects unknown placeholders, blank content and malformed fields with 422', async () => {
    assertProblem(await create({ name: 'A', content: 'Hi {{contact.shoe_size}}' }), 422, 'validation_failed')
    for (const payload of [
      { name: 'A' },
      { name: 'A', content: '  ' },
      { name: ' padded ', content: 'x' },
      { name: 'A', content: 'x', shortcut: 'Has Space' },
      { name: 'A', content: 'x', language: 'english!' },
    ]) {
      assertProblem(await create(payload), 422, 'validation_failed')
    }
  })

  it('requires a key with messages:write', async () => {
    await assertAuthRequired(h, { method: 'POST', url: '/v2/inbox/templates', payload: { name: 'x', content: 'y' } })
  })
})
