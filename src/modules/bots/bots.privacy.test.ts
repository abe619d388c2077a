import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DataSubject } from '../../kernel/module.js'
import type { TestApp } from '../../../test/helpers.js'
import { botsApp, get, ok, publishedBot, say } from './bots.testkit.js'

const ADA: DataSubject = { email: 'ada@example.com', phone: '+14155550101', external_id: null }
const NADA: DataSubject = { email: 'nada@example.com', phone: null, external_id: null }

describe('bots privacy', () => {
  let h: TestApp
  let bot: any
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const privacy = () => h.app.kernel.modules.find((m) => m.name === 'bots')!.privacy!
  const collect = (s: DataSubject) => privacy().collect(h.app.kernel, h.app.services, tenant(), s)

  before(async () => {
    h = await botsApp()
    ;({ bot } = await publishedBot(h))
  })
  after(() => h.close())

  it("finds the replies given in the subject's conversations; erase deletes them and no one else's", async () => {
    const first = await ok(say(h, bot.id, 'How long does delivery take to France?', { contact: { email: ADA.email } }), 201)
    const second = await ok(say(h, bot.id, 'Can I get a refund?', { conversation_id: first.conversation_id }), 201)
    const byPhone = await ok(say(h, bot.id, 'When is your support team available?', { contact: { phone: ADA.phone } }), 201)
    const nada = await ok(say(h, bot.id, 'How long does delivery take abroad?', { contact: { email: NADA.email } }), 201)

    const found = await collect(ADA)
    assert.deepEqual(
      found.records.bot_replies.map((r: any) => r.id),
      [first.id, second.id, byPhone.id],
    )
    assert.deepEqual(found.records.bot_replies[0], first, 'shaped as the API answered it')
    assert.deepEqual(found.ids, [first.id, second.id, byPhone.id])
    assert.deepEqual((await collect(NADA)).ids, [nada.id])

    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 3, anonymised: 0 })
    assert.deepEqual(await collect(ADA), { records: { bot_replies: [] }, files: [], ids: [] })
    assert.deepEqual((await collect(NADA)).ids, [nada.id])
    // The conversations are the inbox's: still there until its own erasure.
    await ok(get(h, `/inbox/conversations/${first.conversation_id}`))
    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 0, anonymised: 0 })
  })

  it('the bot_test_exchanges retention class deletes test exchanges made before the cutoff, and no live reply', async () => {
    const cls = h.app.kernel.modules.find((m) => m.name === 'bots')!.retention!.find((c) => c.name === 'bot_test_exchanges')!
    const tried = await ok(say(h, bot.id, 'How long does delivery take to France?', { test: true }), 201)
    const live = await ok(say(h, bot.id, 'How long does delivery take to France?'), 201)
    assert.equal(tried.test, true)
    const earlier = new Date(Date.now() - 3600_000).toISOString()
    const later = new Date(Date.now() + 60_000).toISOString()
    assert.equal(await cls.count(h.app.kernel, tenant(), earlier), 0)
    const n = await cls.count(h.app.kernel, tenant(), later)
    assert.ok(n >= 1)
    assert.equal(await cls.purge(h.app.kernel, tenant(), later, 500), n)
    assert.equal(await cls.count(h.app.kernel, tenant(), later), 0)
    assert.equal((await get(h, `/bots/${bot.id}/test-conversations/${tried.conversation_id}`)).statusCode, 404)
    await ok(get(h, `/inbox/conversations/${live.conversation_id}`))
    const kept = await h.app.kernel.db.selectFrom('bot_replies').select('id').where('id', '=', live.id).executeTakeFirst()
    assert.ok(kept, 'a live reply is not a test exchange')
  })

  it('a conversation the messages retention deletes takes its bot replies with it; a recent one and a test exchange keep theirs', async () => {
    const messages = h.app.kernel.modules.find((m) => m.name === 'inbox')!.retention!.find((c) => c.name === 'messages')!
    const old = await ok(say(h, bot.id, 'How long does delivery take to Spain?', { contact: { email: 'old@example.com' } }), 201)
    const tried = await ok(say(h, bot.id, 'How long does delivery take to Spain?', { test: true }), 201)
    const cutoff = new Date(Date.now() + 1000).toISOString()
    await new Promise((r) => setTimeout(r, 1100))
    const recent = await ok(say(h, bot.id, 'Can I get a refund?', { contact: { email: 'recent@example.com' } }), 201)
    const replies = (conversation: string) => h.app.kernel.db.selectFrom('bot_replies').select('id').where('conversation_id', '=', conversation).execute()
    assert.equal((await replies(old.conversation_id)).length, 1)
    assert.ok((await messages.purge(h.app.kernel, tenant(), cutoff, 500)) >= 1)
    assert.equal((await get(h, `/inbox/conversations/${old.conversation_id}`)).statusCode, 404)
    assert.deepEqual(await replies(old.conversation_id), [], 'the reply went with its conversation')
    assert.deepEqual(
      (await replies(recent.conversation_id)).map((r) => r.id),
      [recent.id],
    )
    assert.deepEqual(
      (await replies(tried.conversation_id)).map((r) => r.id),
      [tried.id],
      'a test exchange is not an inbox conversation',
    )
  })
})
