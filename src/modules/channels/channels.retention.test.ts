import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DataSubject } from '../../kernel/module.js'
import { assertProblem, channelsApp, get, newChannel, ok, patch, post, type ChannelsApp } from './channels.testkit.js'

const SITE = 'https://shop.example.com'
const DAY = 86_400_000
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')

describe('channels: retention classes (web_chat_visitors, channel_deliveries) and data-subject requests', () => {
  let h: ChannelsApp
  let chat: any
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const module = () => h.app.kernel.modules.find((m) => m.name === 'channels')!
  const cls = (name: string) => module().retention!.find((c) => c.name === name)!
  const collect = (s: DataSubject) => module().privacy!.collect(h.app.kernel, h.app.services, tenant(), s)
  const db = () => h.app.kernel.db
  const widget = (method: 'GET' | 'POST', path: string, opts: { body?: unknown; token?: string; type?: string } = {}) =>
    h.request({
      method,
      url: `/widget/v1/channels/${chat.web_chat.public_key}${path}`,
      key: null,
      headers: { origin: SITE, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.type ? { 'content-type': opts.type } : {}) },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    })
  /** A visitor who gave `email`, wrote, sent a picture and got an agent's reply (a delivery and an e-mail follow-up). */
  const chatter = async (email: string) => {
    const s = await ok(widget('POST', '/session', { body: { email } }))
    const sent = await ok(widget('POST', '/messages', { token: s.token, body: { client_id: `c-${Math.random().toString(36).slice(2, 12)}`, text: 'Hello' } }), 201)
    const file = await ok(widget('POST', `/files?client_id=f-${Math.random().toString(36).slice(2, 12)}&filename=photo.png`, { token: s.token, type: 'image/png', body: PNG }), 201)
    const reply = await ok(post(h, `/inbox/conversations/${sent.conversation_id}/messages`, { content: 'Hi, how can I help?' }), 201)
    await h.drainJobs()
    const row = await db().selectFrom('channel_web_attachments').select('blob_key').where('id', '=', file.attachment_id).executeTakeFirstOrThrow()
    return { token: s.token as string, visitorId: s.visitor.id as string, conv: sent.conversation_id as string, reply: reply.id as string, blobKey: row.blob_key }
  }

  before(async () => {
    h = await channelsApp({ OUTBOUND_ALLOW_PRIVATE_NETWORKS: 'true' })
    const email = await ok(post(h, '/channels', { type: 'email', name: 'Shop support', email: { address: 'help@shop.test', relay: { host: '127.0.0.1', port: 2525, secure: false } } }), 201)
    chat = await newChannel(h, {
      type: 'web_chat',
      name: 'Shop chat',
      phone_number: undefined,
      web_chat: { allowed_origins: [SITE], email_followup: { email_channel_id: email.id, after_minutes: 30 } },
    })
  })
  after(() => h.close())

  it('lists both classes; the dry run counts exactly what enforcement deletes', async () => {
    const policies = await ok(get(h, '/compliance/retention'))
    const names = JSON.stringify(policies)
    assert.match(names, /web_chat_visitors/)
    assert.match(names, /channel_deliveries/)
    const old = await chatter('old@example.net')
    h.clock.advance(40 * DAY)
    const fresh = await chatter('fresh@example.net')
    const dry = await ok(patch(h, '/compliance/retention', { policies: { web_chat_visitors: 30, channel_deliveries: 30 }, dry_run: true }))
    assert.deepEqual([dry.dry_run.web_chat_visitors, dry.dry_run.channel_deliveries], [1, 1], JSON.stringify(dry.dry_run))
    await ok(patch(h, '/compliance/retention', { policies: { web_chat_visitors: 30, channel_deliveries: 30 } }))
    const run = JSON.parse((await h.app.services.compliance.retention.enforce(tenant()))!.deleted)
    assert.deepEqual([run.web_chat_visitors.deleted, run.channel_deliveries.deleted], [1, 1], JSON.stringify(run))

    // The old visitor is forgotten: their token opens nothing, their file is gone, their follow-up and links too.
    assertProblem(await widget('GET', '/messages', { token: old.token }), 401, 'unauthorized')
    assert.equal(await h.app.kernel.blobs.stat(old.blobKey), null, 'the file’s blob is deleted')
    assert.deepEqual(await db().selectFrom('channel_web_followups').select('message_id').where('visitor_id', '=', old.visitorId).execute(), [])
    assert.deepEqual(await db().selectFrom('channel_conversations').select('conversation_id').where('contact_phone', '=', old.visitorId).execute(), [])
    assert.deepEqual(await db().selectFrom('channel_deliveries').select('message_id').where('message_id', '=', old.reply).execute(), [])
    // The conversation is the inbox's, and the message keeps its delivery state.
    const kept = (await ok(get(h, `/inbox/conversations/${old.conv}/messages?order=asc`))).data.find((m: any) => m.id === old.reply)
    assert.ok(kept.delivery)
    // The recent visitor is untouched.
    assert.equal((await ok(widget('GET', '/messages', { token: fresh.token }))).conversation_id, fresh.conv)
    assert.ok(await db().selectFrom('channel_deliveries').select('message_id').where('message_id', '=', fresh.reply).executeTakeFirst())
    assert.equal(await cls('web_chat_visitors').count(h.app.kernel, tenant(), new Date(h.clock.now().getTime() - 30 * DAY).toISOString()), 0)
  })

  it('a queued delivery is not taken by retention (its send job is still ahead)', async () => {
    const v = await chatter('queued@example.net')
    const reply = await ok(post(h, `/inbox/conversations/${v.conv}/messages`, { content: 'Not sent yet' }), 201)
    const later = new Date(h.clock.now().getTime() + DAY).toISOString()
    const before = await cls('channel_deliveries').count(h.app.kernel, tenant(), later)
    assert.equal(await cls('channel_deliveries').purge(h.app.kernel, tenant(), later, 500), before)
    assert.equal((await db().selectFrom('channel_deliveries').select('status').where('message_id', '=', reply.id).executeTakeFirstOrThrow()).status, 'queued')
    await h.drainJobs()
  })

  it('a data-subject export lists their visitors (files, e-mail follow-ups) and the delivery records to them; erasure takes them all', async () => {
    const ada: DataSubject = { email: 'ada@example.net', phone: '+14155550199', external_id: null }
    const v = await chatter(ada.email!)
    const sms = await newChannel(h)
    const inbound = await ok(post(h, `/channels/${sms.id}/simulated-messages`, { from: ada.phone, body: 'Hi by SMS' }))
    const smsReply = await ok(post(h, `/inbox/conversations/${inbound.conversation_id}/messages`, { content: 'Hello by SMS' }), 201)
    await h.drainJobs()
    const other = await chatter('someone-else@example.net')

    const found = await collect(ada)
    const visitor = (found.records.channel_web_visitors as any[])[0]
    assert.equal(visitor.id, v.visitorId)
    assert.equal(visitor.files.length, 1)
    assert.deepEqual(
      visitor.email_followups.map((f: any) => [f.message_id, f.status]),
      [[v.reply, 'pending']],
    )
    assert.deepEqual(
      (found.records.channel_deliveries as any[]).map((d) => [d.message_id, d.to]).sort(),
      [
        [v.reply, v.visitorId],
        [smsReply.id, ada.phone],
      ].sort(),
    )

    await module().privacy!.erase(h.app.kernel, h.app.services, tenant(), ada)
    const after = await collect(ada)
    assert.deepEqual([after.records.channel_web_visitors, after.records.channel_deliveries, after.records.channel_contacts], [[], [], []])
    assert.deepEqual(await db().selectFrom('channel_web_followups').select('message_id').where('visitor_id', '=', v.visitorId).execute(), [])
    assert.deepEqual(await db().selectFrom('channel_deliveries').select('message_id').where('to_phone', 'in', [v.visitorId, ada.phone!]).execute(), [])
    // Nobody else's.
    assert.equal((await collect({ email: 'someone-else@example.net', phone: null, external_id: null })).records.channel_deliveries.length, 1)
    assert.ok(await db().selectFrom('channel_web_followups').select('message_id').where('visitor_id', '=', other.visitorId).executeTakeFirst())
    assert.deepEqual(await module().privacy!.erase(h.app.kernel, h.app.services, tenant(), ada), { deleted: 0, anonymised: 0 })
  })
})
