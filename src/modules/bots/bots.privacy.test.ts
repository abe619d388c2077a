import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DataSubject } from '../../kernel/module.js'
import type { TestApp } from '../../../test/helpers.js'
import { botsApp, get, ok, publishedBot, say } from './bots.test-support.js'

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
    assert.deepEqual(found.records.bot_replies.map((r: any) => r.id), [first.id, second.id, byPhone.id])
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
})
