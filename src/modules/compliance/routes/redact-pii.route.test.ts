import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, complianceApp, events, get, ok, patch, post, type ComplianceApp } from '../compliance.testkit.js'

describe('redactPii', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  const text = 'Hi, I am ada@example.com, card 4111 1111 1111 1111, IBAN GB82 WEST 1234 5698 7654 32, call +44 20 7946 0958 from 203.0.113.7. Order ORD-2024-0001.'

  it('finds each entity with offsets that point at it, and redacts by mask, remove or hash', async () => {
    const r = await ok(post(h, '/compliance/pii-redaction', { text }))
    assert.equal(r.applied, false)
    const item = r.items[0]
    assert.deepEqual(
      item.entities.map((e: any) => e.type),
      ['email', 'card_number', 'iban', 'phone', 'ip_address'],
    )
    const values = item.entities.map((e: any) => text.slice(e.start, e.end))
    assert.deepEqual(values, ['ada@example.com', '4111 1111 1111 1111', 'GB82 WEST 1234 5698 7654 32', '+44 20 7946 0958', '203.0.113.7'])
    for (const e of item.entities) assert.equal(item.redacted.slice(e.redacted_start, e.redacted_end), e.replacement)
    assert.match(item.redacted, /^Hi, I am \[EMAIL\], card \[CARD_NUMBER\]/)
    assert.ok(item.redacted.includes('ORD-2024-0001'), 'an order number is not personal data')
    const removed = (await ok(post(h, '/compliance/pii-redaction', { text, mode: 'remove', types: ['email'] }))).items[0]
    assert.equal(removed.redacted, text.replace('ada@example.com', ''))
    const hashed1 = (await ok(post(h, '/compliance/pii-redaction', { text: 'ADA@example.com', mode: 'hash' }))).items[0].redacted
    const hashed2 = (await ok(post(h, '/compliance/pii-redaction', { text: 'ada@example.com', mode: 'hash' }))).items[0].redacted
    assert.equal(hashed1, hashed2, 'the same value hashes the same')
    assert.match(hashed1, /^\[EMAIL:[0-9a-f]{12}\]$/)
  })

  it('previews a stored conversation, then applies in place (message.updated, audited)', async () => {
    const conv = await ok(post(h, '/inbox/conversations', { contact: { name: 'Ada' }, message: { content: 'My card is 4111 1111 1111 1111' } }), 201)
    await ok(post(h, `/inbox/conversations/${conv.id}/messages`, { content: 'Thanks, no card needed.', direction: 'outbound' }), 201)
    const preview = await ok(post(h, '/compliance/pii-redaction', { conversation_id: conv.id }))
    assert.equal(preview.items.length, 2)
    assert.equal(preview.entity_count, 1)
    let messages = (await ok(get(h, `/inbox/conversations/${conv.id}/messages?order=asc`))).data
    assert.equal(messages[0].content, 'My card is 4111 1111 1111 1111', 'a preview changes nothing')
    const applied = await ok(post(h, '/compliance/pii-redaction', { conversation_id: conv.id, apply: true }))
    assert.equal(applied.applied, true)
    messages = (await ok(get(h, `/inbox/conversations/${conv.id}/messages?order=asc`))).data
    assert.equal(messages[0].content, 'My card is [CARD_NUMBER]')
    assert.equal(messages[1].content, 'Thanks, no card needed.')
    assert.ok((await events(h, 'message.updated')).some((m) => m.id === messages[0].id))
    const audit = (await ok(get(h, '/compliance/audit-log?action=redactPii'))).data
    assert.equal(audit.length, 1)
    assert.ok(audit[0].events.includes('message.updated'))
    const one = await ok(post(h, '/compliance/pii-redaction', { message_id: messages[0].id }))
    assert.equal(one.entity_count, 0, 'already redacted')
  })

  it('bad input: unknown entity types 422, no or two sources 422, apply on a text 422, another workspace’s conversation 422 invalid_reference', async () => {
    assertProblem(await post(h, '/compliance/pii-redaction', { text: 'x', types: ['email', 'shoe_size'] }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/pii-redaction', {}), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/pii-redaction', { text: 'x', conversation_id: 'conv_x' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/pii-redaction', { text: 'x', apply: true }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/pii-redaction', { text: 'x', mode: 'shred' }), 422, 'validation_failed')
    const theirs = await ok(post(h, '/inbox/conversations', { message: { content: 'a@b.example' } }, { key: h.b.live }), 201)
    assertProblem(await post(h, '/compliance/pii-redaction', { conversation_id: theirs.id }), 422, 'invalid_reference')
  })

  it("finds national phone numbers in the request's region, else the workspace's default_region; none without one", async () => {
    const text = 'Call 020 7946 0018 (London) or (415) 555-0132 (San Francisco), or +44 20 7946 0958.'
    const phones = (r: any) => r.items[0].entities.filter((e: any) => e.replacement === '[PHONE]').map((e: any) => text.slice(e.start, e.end))
    const none = await ok(post(h, '/compliance/pii-redaction', { text, types: ['phone'] }))
    assert.equal(none.region, null)
    assert.deepEqual(phones(none), ['+44 20 7946 0958'], 'a national number is ambiguous without a region')
    const gb = await ok(post(h, '/compliance/pii-redaction', { text, types: ['phone'], region: 'gb' }))
    assert.equal(gb.region, 'GB')
    assert.deepEqual(phones(gb), ['020 7946 0018', '+44 20 7946 0958'])
    assert.match(gb.items[0].redacted, /^Call \[PHONE\] \(London\) or \(415\) 555-0132/)
    assert.deepEqual(phones(await ok(post(h, '/compliance/pii-redaction', { text, types: ['phone'], region: 'US' }))), ['(415) 555-0132', '+44 20 7946 0958'])
    // The same number hashes alike written nationally (with its region) and internationally.
    const national = (await ok(post(h, '/compliance/pii-redaction', { text: '020 7946 0958', mode: 'hash', region: 'GB' }))).items[0].redacted
    const international = (await ok(post(h, '/compliance/pii-redaction', { text: '+44 20 7946 0958', mode: 'hash' }))).items[0].redacted
    assert.equal(national, international)

    const ws = await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { default_region: 'us' }))
    assert.equal(ws.default_region, 'US')
    const byDefault = await ok(post(h, '/compliance/pii-redaction', { text, types: ['phone'] }))
    assert.equal(byDefault.region, 'US')
    assert.deepEqual(phones(byDefault), ['(415) 555-0132', '+44 20 7946 0958'])
    assert.deepEqual(phones(await ok(post(h, '/compliance/pii-redaction', { text, types: ['phone'], region: 'GB' }))), ['020 7946 0018', '+44 20 7946 0958'], 'the request overrides the default')
    assertProblem(await patch(h, `/workspaces/${h.a.workspaceId}`, { default_region: 'XX' }), 422, 'validation_failed')
    assertProblem(await patch(h, `/workspaces/${h.a.workspaceId}`, { default_region: 'GBR' }), 422, 'validation_failed')
    assert.equal((await ok(patch(h, `/workspaces/${h.a.workspaceId}`, { default_region: null }))).default_region, null)
    assertProblem(await post(h, '/compliance/pii-redaction', { text, region: 'ZZ' }), 422, 'validation_failed')
    assertProblem(await post(h, '/compliance/pii-redaction', { text, region: 'GBR' }), 422, 'validation_failed')
  })
})
