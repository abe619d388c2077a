import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ENGINE } from '../../../test/helpers.js'
import { attachmentFolder, attachmentKey } from './email/email-inbound.service.js'
import { postmarkInbound } from './email/email.testkit.js'
import { channelsApp, type ChannelsApp, newChannel, ok, patch, post, runDsar, startTwilioMessaging, type TwilioMessaging } from './channels.testkit.js'
import { mediaKey } from './providers/twilio-media.js'

// What a channel stored for a conversation (MMS / WhatsApp media, web chat files, e-mail attachments and
// threading) goes when the inbox deletes the conversation: under the `messages` retention policy and by an
// erasure, through `conversation.deleted` and the channels' job. Another conversation's stay.

const DAY = 86_400_000
const SITE = 'https://shop.example.com'
const PASSWORD = 'inbound-password-0123456789'
const basic = `Basic ${Buffer.from(`inbound:${PASSWORD}`).toString('base64')}`
const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]), Buffer.from('JFIF'), Buffer.alloc(300, 3)])
const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8DwHwAFBQIAX8jx0gAAAABJRU5ErkJggg==', 'base64')
const ADA = '+14155550181'
const BOB = '+14155550182'

describe(`channels forget what they kept for a deleted conversation (${ENGINE})`, () => {
  let h: ChannelsApp
  let tw: TwilioMessaging
  let mms: any
  let mail: any
  let chat: any
  const db = () => h.app.kernel.db
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const blob = (key: string) => h.app.kernel.blobs.stat(key)

  /** An MMS with a photo: its receipt (the folder its media are under) and conversation. */
  async function sms(from: string) {
    const r = await tw.inbound(mms.webhooks.messages_url, { from, to: mms.phone_number, body: 'A photo', media: [{ url: tw.addMedia(JPEG, 'image/jpeg'), type: 'image/jpeg' }] })
    assert.equal(r.status, 200)
    const receipt = await db().selectFrom('channel_receipts').selectAll().where('provider_sid', '=', r.sid).executeTakeFirstOrThrow()
    assert.ok(receipt.media_folder, 'the photo is stored')
    return { receipt, key: mediaKey(mms.id, receipt.media_folder!, 0) }
  }

  /** An e-mail with an attachment (Postmark's inbound JSON): its conversation and the attachment's blob. */
  async function email(from: string, messageId: string) {
    const res = await fetch(mail.email.inbound.postmark_url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: basic },
      body: JSON.stringify(postmarkInbound(from, messageId, [{ Name: 'invoice.txt', Content: Buffer.from(`invoice of ${from}`), ContentType: 'text/plain' }])),
    })
    assert.equal(res.status, 200)
    const thread = await db().selectFrom('channel_email_threads').selectAll().where('header_id', '=', messageId).executeTakeFirstOrThrow()
    return { conv: thread.conversation_id, key: attachmentKey(mail.id, attachmentFolder(mail.id, messageId), 0) }
  }

  /** A web chat visitor who sent a picture. */
  async function visitorFile(emailAddress: string) {
    const widget = (path: string, opts: { body: unknown; token?: string; type?: string }) =>
      h.request({
        method: 'POST',
        url: `/widget/v1/channels/${chat.web_chat.public_key}${path}`,
        key: null,
        headers: { origin: SITE, ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}), ...(opts.type ? { 'content-type': opts.type } : {}) },
        payload: opts.body as object,
      })
    const s = await ok(widget('/session', { body: { email: emailAddress } }))
    const file = await ok(widget(`/files?client_id=f-${Math.random().toString(36).slice(2, 12)}&filename=photo.png`, { token: s.token, type: 'image/png', body: PNG }), 201)
    const row = await db().selectFrom('channel_web_attachments').selectAll().where('id', '=', file.attachment_id).executeTakeFirstOrThrow()
    return { conv: file.conversation_id as string, id: row.id, key: row.blob_key }
  }

  before(async () => {
    tw = await startTwilioMessaging()
    h = await channelsApp()
    mms = await newChannel(h, { phone_number: '+14155550180', provider: 'twilio', credentials: tw.credentials })
    mail = await ok(post(h, '/channels', { type: 'email', name: 'Help', email: { address: 'help@shop.test', webhook_password: PASSWORD } }), 201)
    chat = await newChannel(h, { type: 'web_chat', name: 'Shop chat', phone_number: undefined, web_chat: { allowed_origins: [SITE] } })
  })
  after(async () => {
    await h.close()
    await tw.close()
  })

  it('the messages retention policy: the old conversations’ media, files, attachments and threading go; the recent ones’ stay', async () => {
    const ada = await sms(ADA)
    const ann = await email('ann@example.net', 'ann-1@example.net')
    const visitor = await visitorFile('vic@example.net')
    const apiOnly = await ok(post(h, '/inbox/conversations', { channel: 'api', contact: { name: 'No channel' }, message: { content: 'Hi' } }), 201)
    h.clock.advance(40 * DAY)
    const bob = await sms(BOB)
    const bea = await email('bea@example.net', 'bea-1@example.net')
    for (const k of [ada.key, ann.key, visitor.key, bob.key, bea.key]) assert.ok(await blob(k), `${k} stored`)

    await ok(patch(h, '/compliance/retention', { policies: { messages: 30 } }))
    const run = await h.app.services.compliance.retention.enforce(tenant())
    assert.equal(JSON.parse(run!.deleted).messages.deleted >= 4, true, run!.deleted)
    // One event per deleted conversation; a job only for those a channel kept something for.
    const deletedEvents = await db().selectFrom('events').select('data').where('type', '=', 'conversation.deleted').execute()
    const gone = deletedEvents.map((e) => JSON.parse(e.data).object.id).sort()
    assert.deepEqual(gone, [ada.receipt.conversation_id, ann.conv, visitor.conv, apiOnly.id].sort())
    assert.deepEqual(JSON.parse(deletedEvents[0].data).object, { id: JSON.parse(deletedEvents[0].data).object.id, object: 'conversation', deleted: true })
    const jobs = await db().selectFrom('jobs').select('payload').where('name', '=', 'channels.conversation-forget').execute()
    assert.deepEqual(jobs.map((j) => JSON.parse(j.payload).conversation_id).sort(), [ada.receipt.conversation_id, ann.conv, visitor.conv].sort())
    await h.drainJobs()

    for (const k of [ada.key, ann.key, visitor.key]) assert.equal(await blob(k), null, `${k} deleted`)
    for (const k of [bob.key, bea.key]) assert.ok(await blob(k), `${k} kept`)
    const receipt = await db().selectFrom('channel_receipts').selectAll().where('provider_sid', '=', ada.receipt.provider_sid).executeTakeFirstOrThrow()
    assert.deepEqual([receipt.media_folder, receipt.contact_phone], ['', null], 'the receipt stays for late retries, without media or number')
    assert.equal(await db().selectFrom('channel_web_attachments').select('id').where('id', '=', visitor.id).executeTakeFirst(), undefined)
    assert.equal(await db().selectFrom('channel_email_threads').select('header_id').where('conversation_id', '=', ann.conv).executeTakeFirst(), undefined)
    assert.equal(await db().selectFrom('channel_email_conversations').select('contact_email').where('conversation_id', '=', ann.conv).executeTakeFirst(), undefined)
    const links = await db().selectFrom('channel_conversations').select('conversation_id').execute()
    assert.deepEqual(
      links.map((l) => l.conversation_id).filter((c) => [ada.receipt.conversation_id, visitor.conv].includes(c)),
      [],
    )
    const contact = await db().selectFrom('channel_contacts').selectAll().where('contact_phone', '=', ADA).executeTakeFirstOrThrow()
    assert.equal(contact.conversation_id, null)
    assert.ok(await db().selectFrom('channel_email_threads').select('header_id').where('conversation_id', '=', bea.conv).executeTakeFirst(), 'the recent thread stays')

    // Ada writes again: a new conversation, her new photo stored; a rerun of a finished job finds nothing to do.
    const again = await sms(ADA)
    assert.notEqual(again.receipt.conversation_id, ada.receipt.conversation_id)
    assert.ok(await blob(again.key))
    const rerun = await h.app.services.channels.conversationForget.run(
      { workspace_id: h.a.workspaceId, mode: 'live', conversation_id: ada.receipt.conversation_id! },
      { jobId: 'job_rerun', attempt: 1 },
    )
    assert.equal(rerun, 1, 'only the receipt, again')
  })

  it('an erasure: the subject’s conversations go, and with them what the channels kept', async () => {
    const cy = await sms('+14155550183')
    await runDsar(h, 'erasure', { phone: '+14155550183' })
    assert.equal(await blob(cy.key), null)
    const events = await db().selectFrom('events').select('data').where('type', '=', 'conversation.deleted').execute()
    assert.ok(events.some((e) => JSON.parse(e.data).object.id === cy.receipt.conversation_id))
    assert.equal(await db().selectFrom('channel_conversations').select('conversation_id').where('conversation_id', '=', cy.receipt.conversation_id!).executeTakeFirst(), undefined)
  })
})
