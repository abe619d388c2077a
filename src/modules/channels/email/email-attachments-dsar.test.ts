import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { ENGINE } from '../../../../test/helpers.js'
import { channelsApp, type ChannelsApp, dsarExport, get, ok, post, runDsar } from '../channels.testkit.js'
import { attachmentFolder, attachmentKey } from './email-inbound.service.js'
import { postmarkInbound } from './email.testkit.js'

// The attachments a customer sent by e-mail through the real DSAR operations: an access request's export lists
// each (message, conversation, the name it was sent under made safe as a path, type, size, its signed link) and
// carries its bytes; an erasure deletes them and keeps everyone else's.

const PASSWORD = 'inbound-password-0123456789'
const basic = `Basic ${Buffer.from(`inbound:${PASSWORD}`).toString('base64')}`
const PNG = Buffer.from('\x89PNG\r\n\x1a\n-ann-png-bytes', 'latin1')
const TXT = Buffer.from('the invoice text')
const BOB = Buffer.from('bob-only')

describe(`e-mail attachments in data-subject requests (${ENGINE})`, () => {
  let h: ChannelsApp
  let channel: any

  async function inbound(from: string, messageId: string, attachments: { Name: string; Content: Buffer; ContentType: string }[]) {
    const res = await fetch(channel.email.inbound.postmark_url, {
      method: 'POST',
      body: JSON.stringify(postmarkInbound(from, messageId, attachments)),
      headers: { 'content-type': 'application/json', authorization: basic },
    })
    assert.equal(res.status, 200)
  }

  const dsar = (type: 'access' | 'erasure') => runDsar(h, type, { email: 'ann@example.net' })
  const exportOf = (id: string) => dsarExport(h, id)

  before(async () => {
    h = await channelsApp()
    channel = await ok(post(h, '/channels', { type: 'email', name: 'Help', email: { address: 'help@shop.test', webhook_password: PASSWORD } }), 201)
    await inbound('ann@example.net', 'ann-1@example.net', [
      { Name: 'photo.png', Content: PNG, ContentType: 'image/png' },
      { Name: '../../etc/passwd invoice.txt', Content: TXT, ContentType: 'text/plain' },
    ])
    await inbound('ann@example.net', 'ann-2@example.net', [])
    await inbound('bob@example.net', 'bob-1@example.net', [{ Name: 'bob.txt', Content: BOB, ContentType: 'text/plain' }])
  })
  after(() => h.close())

  it('an access export lists each attachment of theirs with its message and carries its bytes; nothing of another customer', async () => {
    const { zip, channels } = await exportOf((await dsar('access')).id)
    const listed = channels.channel_email_attachments
    assert.deepEqual(listed.map((a: any) => [a.filename, a.content_type, a.size_bytes]).sort(), [
      ['__._etc_passwd_invoice.txt', 'text/plain', TXT.length],
      ['photo.png', 'image/png', PNG.length],
    ])
    for (const a of listed) {
      assert.match(a.message_id, /^msg_/)
      assert.match(a.conversation_id, /^conv_/)
      assert.equal(a.channel_id, channel.id)
      assert.match(a.url, /\/email\/attachments\/[0-9a-f]+\/\d\?sig=/)
      assert.ok(a.file.startsWith('files/email/') && !a.file.includes('..'), a.file)
    }
    const bytes = await Promise.all(listed.map((a: any) => zip.file(a.file)!.async('nodebuffer')))
    assert.deepEqual(bytes.map((b) => b.toString('latin1')).sort(), [PNG.toString('latin1'), TXT.toString('latin1')].sort())
    const message = await ok(get(h, `/inbox/conversations/${listed[0].conversation_id}/messages?order=asc`))
    assert.ok(
      message.data.some((m: any) => m.attachments.some((x: any) => x.url === listed[0].url)),
      'the link is the one its message shows',
    )
    // Bob's address, his mail and his file: never a bare 'bob', which a random signature (base64url) may hold.
    const text = JSON.stringify(channels)
    for (const his of ['bob@example.net', 'bob-1@example.net', 'bob.txt']) assert.ok(!text.includes(his), `nothing of Bob’s (${his})`)
  })

  it('an erasure deletes their attachments and keeps another customer’s; a later export lists none', async () => {
    const bobKey = attachmentKey(channel.id, attachmentFolder(channel.id, 'bob-1@example.net'), 0)
    const annKeys = [0, 1].map((i) => attachmentKey(channel.id, attachmentFolder(channel.id, 'ann-1@example.net'), i))
    for (const key of annKeys) assert.ok(await h.app.kernel.blobs.stat(key), 'stored before')
    await dsar('erasure')
    for (const key of annKeys) assert.equal(await h.app.kernel.blobs.stat(key), null, 'deleted')
    assert.ok(await h.app.kernel.blobs.stat(bobKey), 'Bob’s stays')
    assert.deepEqual((await exportOf((await dsar('access')).id)).channels.channel_email_attachments, [])
  })
})
