import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ManualClock } from '../../kernel/clock.js'
import type { DataSubject } from '../../kernel/module.js'
import { createTestApp, get, ok, post, type TestApp } from '../../../test/helpers.js'
import { eraseMentions } from '../../kernel/pii/pii.mentions.js'

// Two people in one workspace; the second one's address contains the first one's (nada@ ⊃ ada@) and
// their phone starts with the first one's number: neither may be taken for the other.
const ADA: DataSubject = { email: 'ada@example.com', phone: '+14155550101', external_id: 'crm-ada' }
const NADA: DataSubject = { email: 'nada@example.com', phone: '+141555501019', external_id: 'crm-nada' }

describe('inbox privacy and retention', () => {
  let h: TestApp
  let clock: ManualClock
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const privacy = () => h.app.kernel.modules.find((m) => m.name === 'inbox')!.privacy!
  const collect = (s: DataSubject) => privacy().collect(h.app.kernel, h.app.services, tenant(), s)
  const conversation = (payload: Record<string, unknown>, key?: string) => ok(post(h, '/inbox/conversations', payload, { key }), 201)
  const say = (id: string, content: string, key?: string) => ok(post(h, `/inbox/conversations/${id}/messages`, { content, direction: 'inbound' }, { key }), 201)
  const messagesOf = async (id: string) => (await ok(get(h, `/inbox/conversations/${id}/messages?order=asc&limit=100`))).data

  before(async () => {
    clock = new ManualClock(Date.parse('2026-11-01T09:00:00Z'))
    h = await createTestApp({ clock })
  })
  after(() => h.close())

  it('finds the subject by email, phone or external id, with messages, drafts and mentions elsewhere; erases exactly that', async () => {
    await ok(post(h, '/inbox/tags', { name: 'vip' }), 201)
    const byEmail = await conversation({ contact: { email: 'Ada@Example.com' }, tags: ['vip'], message: { content: 'Hello, this is Ada.' } })
    const byPhone = await conversation({ contact: { phone: ADA.phone }, message: { content: 'Call me back please' } })
    const byExternal = await conversation({ contact: { external_id: 'crm-ada' } })
    await say(byEmail.id, 'Any news on my order?')
    await ok(post(h, `/inbox/conversations/${byEmail.id}/ai-draft`, {}), 201)
    const nada = await conversation({ contact: { email: NADA.email, phone: NADA.phone, external_id: NADA.external_id }, message: { content: 'Hi, Nada here: nada@example.com, +141555501019.' } })
    const mention = await say(nada.id, 'My friend ADA@example.com (+14155550101) sent me. Or write to ada@example.com.au.')

    const found = await collect(ADA)
    assert.deepEqual(found.records.conversations.map((c: any) => c.id).sort(), [byEmail.id, byPhone.id, byExternal.id].sort())
    assert.deepEqual((found.records.conversations as any[]).find((c) => c.id === byEmail.id).contact.email, 'ada@example.com')
    assert.equal(found.records.messages.length, 3)
    assert.ok((found.records.messages as any[]).every((m) => [byEmail.id, byPhone.id].includes(m.conversation_id)))
    assert.equal(found.records.ai_drafts.length, 1)
    assert.deepEqual(
      found.records.mentions.map((m: any) => m.id),
      [mention.id],
    )
    assert.deepEqual(found.files, [])
    assert.ok(found.ids.includes(byEmail.id) && found.ids.includes(mention.id))

    const other = await collect(NADA)
    assert.deepEqual(
      other.records.conversations.map((c: any) => c.id),
      [nada.id],
    )
    assert.deepEqual(other.records.mentions, [])
    assert.equal(other.records.messages.length, 2)

    const erased = await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA)
    assert.deepEqual(erased, { deleted: 3 + 3 + 1, anonymised: 1 })
    const after = await collect(ADA)
    for (const [kind, list] of Object.entries(after.records)) assert.deepEqual(list, [], kind)
    for (const c of [byEmail, byPhone, byExternal]) assert.equal((await get(h, `/inbox/conversations/${c.id}`)).statusCode, 404)
    assert.deepEqual((await ok(get(h, '/inbox/conversations?tag=vip'))).data, [])
    const kept = await messagesOf(nada.id)
    assert.equal(kept[0].content, 'Hi, Nada here: nada@example.com, +141555501019.')
    assert.equal(kept[1].content, 'My friend [erased] ([erased]) sent me. Or write to ada@example.com.au.')
    assert.deepEqual(
      (await collect(NADA)).records.conversations.map((c: any) => c.id),
      [nada.id],
    )

    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 0, anonymised: 0 })
  })

  it('mentions: whole addresses and numbers only, any case for the email', () => {
    assert.equal(eraseMentions('ada@example.com', ADA), '[erased]')
    assert.equal(eraseMentions('mail:ADA@EXAMPLE.COM. call +14155550101!', ADA), 'mail:[erased]. call [erased]!')
    assert.equal(eraseMentions('nada@example.com x.ada@example.com ada@example.community +141555501019', ADA), 'nada@example.com x.ada@example.com ada@example.community +141555501019')
  })

  it('mentions by name: a full name as a whole word, any case; a lone first name is no one in particular', () => {
    const withNames = { ...ADA, names: ['Ada  Lovelace', 'Ada'] }
    assert.equal(eraseMentions('ada lovelace called; Ada Lovelaces did not; Ada did.', withNames), '[erased] called; Ada Lovelaces did not; Ada did.')
    assert.equal(eraseMentions('Ada Lovelace', ADA), 'Ada Lovelace', 'no names given: none found')
  })

  it('retention of messages: conversations inactive since before the cutoff go with their messages; count says how many', async () => {
    const key = h.b.live
    const t = { workspaceId: h.b.workspaceId, mode: 'live' as const }
    const messages = h.app.kernel.modules.find((m) => m.name === 'inbox')!.retention!.find((c) => c.name === 'messages')!
    const old1 = await conversation({ message: { content: 'old one' } }, key)
    const old2 = await conversation({}, key)
    const revived = await conversation({ message: { content: 'old, then new' } }, key)
    clock.advance(10 * 86400_000)
    await say(revived.id, 'still here', key)
    const fresh = await conversation({ message: { content: 'new' } }, key)
    const cutoff = new Date(clock.now().getTime() - 5 * 86400_000).toISOString()

    assert.equal(await messages.count(h.app.kernel, t, cutoff), 2)
    assert.equal(await messages.purge(h.app.kernel, t, cutoff, 1), 1)
    assert.equal(await messages.purge(h.app.kernel, t, cutoff, 500), 1)
    assert.equal(await messages.count(h.app.kernel, t, cutoff), 0)
    for (const c of [old1, old2]) assert.equal((await get(h, `/inbox/conversations/${c.id}`, key)).statusCode, 404)
    for (const c of [revived, fresh]) await ok(get(h, `/inbox/conversations/${c.id}`, key))
    assert.equal((await ok(get(h, `/inbox/conversations/${revived.id}/messages`, key))).data.length, 2)
    // Another tenant's conversations were never counted.
    assert.ok((await collect(NADA)).records.conversations.length === 1)
  })
})
