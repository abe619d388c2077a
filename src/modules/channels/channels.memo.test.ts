import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../test/helpers.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './channels.repository.js'
import { get, newChannel, ok, post } from './channels.testkit.js'

// A conversation's link and its channel are read once per transaction (channels.repository.ts): an outbound
// message's subscribers share them. What the transaction writes, and what another workspace has, still count.
describe('channels: the link and the channel read once per transaction', () => {
  let h: TestApp
  let tenant: Tenant
  let channel: { id: string }
  let conversationId: string
  before(async () => {
    h = await createTestApp()
    tenant = { workspaceId: h.a.workspaceId, mode: 'live' }
    channel = await newChannel(h, { phone_number: '+14155550170' })
    conversationId = (await ok(post(h, `/channels/${channel.id}/simulated-messages`, { from: '+14155550171', body: 'Hi' }))).conversation_id
  })
  after(() => h.close())

  it('a second read in the transaction is the first one; a write forgets it; the pool always reads', async () => {
    const { kernel } = h.app
    const first = await kernel.transaction(null, async (tx) => {
      const link = await repo.findConversationLink(tx, tenant, conversationId)
      assert.equal(link?.channel_id, channel.id)
      assert.equal(await repo.findConversationLink(tx, tenant, conversationId), link)
      const ch = await repo.findChannel(tx, tenant, channel.id)
      assert.equal(await repo.findChannel(tx, tenant, channel.id), ch)
      await repo.setBotState(tx, tenant, conversationId, 'handed_off')
      const after = await repo.findConversationLink(tx, tenant, conversationId)
      assert.notEqual(after, link)
      assert.equal(after?.bot_state, 'handed_off')
      await repo.updateChannel(tx, tenant, channel.id, { name: 'Renamed in the transaction' })
      assert.equal((await repo.findChannel(tx, tenant, channel.id))?.name, 'Renamed in the transaction')
      return link
    })
    assert.notEqual(await repo.findConversationLink(kernel.db, tenant, conversationId), await repo.findConversationLink(kernel.db, tenant, conversationId))
    await kernel.transaction(null, async (tx) => {
      const again = await repo.findConversationLink(tx, tenant, conversationId)
      assert.notEqual(again, first)
      assert.equal(again?.bot_state, 'handed_off')
    })
  })

  it('never answers for another workspace or mode', async () => {
    const { kernel } = h.app
    await kernel.transaction(null, async (tx) => {
      assert.ok(await repo.findConversationLink(tx, tenant, conversationId))
      assert.equal(await repo.findConversationLink(tx, { workspaceId: h.b.workspaceId, mode: 'live' }, conversationId), undefined)
      assert.equal(await repo.findConversationLink(tx, { ...tenant, mode: 'test' }, conversationId), undefined)
      assert.ok(await repo.findChannel(tx, tenant, channel.id))
      assert.equal(await repo.findChannel(tx, { workspaceId: h.b.workspaceId, mode: 'live' }, channel.id), undefined)
    })
  })

  it('a customer erased in the transaction has no link for its next read', async () => {
    const { kernel } = h.app
    await kernel
      .transaction(null, async (tx) => {
        assert.ok(await repo.findConversationLink(tx, tenant, conversationId))
        await repo.eraseByPhone(tx, tenant, '+14155550171')
        assert.equal(await repo.findConversationLink(tx, tenant, conversationId), undefined)
        // Not kept: the transaction rolls back.
        throw new Error('rollback')
      })
      .catch((err: Error) => assert.equal(err.message, 'rollback'))
    // An outbound reply reads the link once for both subscribers and is still sent through the channel.
    const reply = await ok(post(h, `/inbox/conversations/${conversationId}/messages`, { content: 'We are here.' }), 201)
    await h.drainJobs()
    const msgs = (await ok(get(h, `/inbox/conversations/${conversationId}/messages?order=asc`))).data
    assert.equal(msgs.find((m: { id: string }) => m.id === reply.id).delivery.status, 'delivered')
  })
})
