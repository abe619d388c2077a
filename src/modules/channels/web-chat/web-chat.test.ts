import assert from 'node:assert/strict'
import { gzipSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { request as httpRequest } from 'undici'
import { assertProblem, get, newChannel, ok, post } from '../channels.testkit.js'
import { channelsApp, type ChannelsApp } from '../channels.testkit.js'
import { userHash } from './web-chat.service.js'

const SITE = 'https://shop.example.com'

describe('the web chat widget’s public API (/widget/v1)', () => {
  let h: ChannelsApp
  let channel: any
  let bot: any
  const widget = (method: 'GET' | 'POST' | 'OPTIONS', path: string, opts: { body?: unknown; token?: string; origin?: string | null; key?: string } = {}) =>
    h.request({
      method,
      url: `/widget/v1/channels/${opts.key ?? channel.web_chat.public_key}${path}`,
      key: null,
      headers: { ...(opts.origin === null ? {} : { origin: opts.origin ?? SITE }), ...(opts.token ? { authorization: `Bearer ${opts.token}` } : {}) },
      ...(opts.body !== undefined ? { payload: opts.body as object } : {}),
    })
  const session = async (body: Record<string, unknown> = {}) => ok(widget('POST', '/session', { body }))

  before(async () => {
    h = await channelsApp()
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Help center' }), 201)
    await ok(
      post(h, `/knowledge/bases/${kb.id}/documents`, {
        title: 'Shipping times',
        text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.',
      }),
      202,
    )
    await h.drainJobs()
    bot = await ok(post(h, '/bots', { name: 'Site bot', knowledge_base_ids: [kb.id], channels: ['chat'] }), 201)
    await ok(post(h, `/bots/${bot.id}/publish`))
    channel = await newChannel(h, { type: 'web_chat', name: 'Site chat', phone_number: undefined, bot_id: bot.id, web_chat: { allowed_origins: [SITE], identity_verification: true } })
  })
  after(() => h.close())

  it('a visitor chats with the bot, sees only their own conversation, and comes back to it', async () => {
    const s = await session({ name: 'Ada' })
    assert.match(s.token, /^wvt_/)
    assert.deepEqual([s.conversation_id, s.messages], [null, []])
    assert.equal(s.config.theme.color, '#1f6feb')
    const sent = await widget('POST', '/messages', { token: s.token, body: { client_id: 'c1-aaaaaaaa', text: 'How long does delivery take to France?' } })
    assert.equal(sent.statusCode, 201, sent.body)
    assert.equal(sent.headers['access-control-allow-origin'], SITE)
    const first = JSON.parse(sent.body)
    // The same client id again (a retry) is the same message.
    const again = JSON.parse((await widget('POST', '/messages', { token: s.token, body: { client_id: 'c1-aaaaaaaa', text: 'How long does delivery take to France?' } })).body)
    assert.equal(again.duplicate, true)
    await h.drainJobs()
    const history = await ok(widget('GET', '/messages', { token: s.token }))
    assert.equal(history.conversation_id, first.conversation_id)
    assert.deepEqual(
      history.messages.map((m: any) => m.from),
      ['visitor', 'bot'],
    )
    assert.match(history.messages[1].text, /working days/)
    // In the inbox: a chat conversation with the visitor's name, the bot's answer sent.
    const conv = await ok(get(h, `/inbox/conversations/${first.conversation_id}`))
    assert.deepEqual([conv.channel, conv.contact.name, conv.metadata.channel_id], ['chat', 'Ada', channel.id])
    const inbox = (await ok(get(h, `/inbox/conversations/${first.conversation_id}/messages?order=asc`))).data
    assert.equal(inbox[1].delivery.status, 'delivered', 'the widget showed it (the history read above)')
    // A private note never reaches the visitor; an agent's reply does.
    await ok(post(h, `/inbox/conversations/${first.conversation_id}/messages`, { content: 'internal: VIP', private: true }), 201)
    await ok(post(h, `/inbox/conversations/${first.conversation_id}/messages`, { content: 'Anything else?' }), 201)
    const back = await session({ token: s.token })
    assert.equal(back.visitor.id, s.visitor.id, 'the returning visitor')
    assert.deepEqual(back.messages.map((m: any) => [m.from, m.text]).slice(2), [['agent', 'Anything else?']])
    // Another visitor sees nothing of it.
    const other = await session()
    assert.notEqual(other.visitor.id, s.visitor.id)
    assert.deepEqual((await ok(widget('GET', '/messages', { token: other.token }))).messages, [])
  })

  it('identity verification: the host’s HMAC of the user id admits them on any device; a forged hash is 403', async () => {
    const row = await h.app.kernel.db.selectFrom('channels').selectAll().where('id', '=', channel.id).executeTakeFirstOrThrow()
    const secret = h.app.kernel.secrets.open(row.widget_secret_sealed!, `${channel.id}:identity_secret`)
    const laptop = await session({ user_id: 'user-42', user_hash: userHash(secret, 'user-42') })
    assert.equal(laptop.visitor.verified, true)
    await ok(widget('POST', '/messages', { token: laptop.token, body: { client_id: 'c2-bbbbbbbb', text: 'Hello from my laptop' } }), 201)
    const phone = await session({ user_id: 'user-42', user_hash: userHash(secret, 'user-42') })
    assert.equal(phone.visitor.id, laptop.visitor.id)
    assert.equal(phone.messages[0].text, 'Hello from my laptop')
    assertProblem(await widget('POST', '/session', { body: { user_id: 'user-42', user_hash: userHash('0'.repeat(64), 'user-42') } }), 403, 'forbidden')
    assertProblem(await widget('POST', '/session', { body: { user_id: 'user-42' } }), 403, 'forbidden')
    assertProblem(await widget('POST', '/session', { body: { user_id: 'user-43', user_hash: userHash(secret, 'user-42') } }), 403, 'forbidden')
  })

  it('refuses other origins, unknown keys, API keys, forged tokens and bad input; CORS preflight for allowed origins only', async () => {
    assertProblem(await widget('POST', '/session', { body: {}, origin: 'https://evil.example' }), 403, 'forbidden')
    assertProblem(await widget('POST', '/session', { body: {}, origin: null }), 403, 'forbidden')
    assertProblem(await widget('POST', '/session', { body: {}, key: 'wck_000000000000000000000000' }), 404, 'resource_not_found')
    assertProblem(await widget('POST', '/session', { body: {}, key: 'nope' }), 404, 'resource_not_found')
    const pre = await widget('OPTIONS', '/messages')
    assert.equal(pre.statusCode, 204)
    assert.equal(pre.headers['access-control-allow-origin'], SITE)
    assert.match(String(pre.headers['access-control-allow-headers']), /Authorization/)
    assert.equal((await widget('OPTIONS', '/messages', { origin: 'https://evil.example' })).statusCode, 403)
    const s = await session()
    assertProblem(await widget('GET', '/messages', { token: h.a.live }), 401, 'unauthorized')
    assertProblem(await widget('GET', '/messages', { token: `${s.token.slice(0, -2)}xx` }), 401, 'unauthorized')
    assertProblem(await widget('GET', '/messages'), 401, 'unauthorized')
    // Another channel's visitor token does not open this channel.
    const other = await newChannel(h, { type: 'web_chat', name: 'Other', phone_number: undefined, web_chat: { allowed_origins: [SITE] } })
    const foreign = await ok(widget('POST', '/session', { body: {}, key: other.web_chat.public_key }))
    assertProblem(await widget('GET', '/messages', { token: foreign.token }), 401, 'unauthorized')
    assertProblem(await widget('POST', '/messages', { token: s.token, body: { client_id: 'short', text: 'x' } }), 422, 'validation_failed')
    assertProblem(await widget('POST', '/messages', { token: s.token, body: { client_id: 'c3-cccccccc', text: 'x'.repeat(4001) } }), 422, 'validation_failed')
    assertProblem(await widget('POST', '/messages', { token: s.token, body: { client_id: 'c3-cccccccc', text: '   ' } }), 422, 'validation_failed')
    assertProblem(await widget('POST', '/session', { body: { email: 'not-an-email' } }), 422, 'validation_failed')
    const big = await h.request({
      method: 'POST',
      url: `/widget/v1/channels/${channel.web_chat.public_key}/messages`,
      key: null,
      headers: { origin: SITE, authorization: `Bearer ${s.token}`, 'content-type': 'application/json' },
      payload: JSON.stringify({ client_id: 'c4-dddddddd', text: 'y'.repeat(20_000) }),
    })
    assertProblem(big, 413, 'payload_too_large')
    const deep = await h.request({
      method: 'POST',
      url: `/widget/v1/channels/${channel.web_chat.public_key}/session`,
      key: null,
      headers: { origin: SITE, 'content-type': 'application/json' },
      payload: '['.repeat(100) + ']'.repeat(100),
    })
    assert.ok([400, 422].includes(deep.statusCode), deep.body)
  })

  it('pre-chat e-mail capture when the channel asks for it; rate limited per visitor', async () => {
    const strict = await newChannel(h, { type: 'web_chat', name: 'Strict', phone_number: undefined, web_chat: { allowed_origins: [SITE], require_email: true } })
    const key = strict.web_chat.public_key
    const s = await ok(widget('POST', '/session', { body: {}, key }))
    assert.equal(s.config.require_email, true)
    assertProblem(await widget('POST', '/messages', { key, token: s.token, body: { client_id: 'c5-eeeeeeee', text: 'Hi' } }), 422, 'validation_failed')
    const v = await ok(widget('POST', '/profile', { key, token: s.token, body: { email: 'Ada@Example.com' } }))
    assert.equal(v.email, 'ada@example.com')
    const m = await ok(widget('POST', '/messages', { key, token: s.token, body: { client_id: 'c5-eeeeeeee', text: 'Hi' } }), 201)
    const conv = await ok(get(h, `/inbox/conversations/${m.conversation_id}`))
    assert.equal(conv.contact.email, 'ada@example.com')
    let limited = null
    for (let i = 0; i < 40 && !limited; i++) {
      const r = await widget('POST', '/messages', { key, token: s.token, body: { client_id: `flood-${String(i).padStart(4, '0')}`, text: `m${i}` } })
      if (r.statusCode === 429) limited = r
    }
    assert.ok(limited, 'a flood is refused')
    assertProblem(limited, 429, 'rate_limited')
    assert.ok(limited.headers['retry-after'])
  })

  it('serves the script (small, gzip ≤ 40 KB) and streams the visitor’s conversation live', async () => {
    const cfg = await ok(widget('GET', '/config'))
    assert.deepEqual([cfg.object, cfg.theme.position, cfg.identity_verification], ['widget_config', 'bottom-right', true])
    assertProblem(await widget('GET', '/config', { origin: 'https://evil.example' }), 403, 'forbidden')
    const js = await h.request({ method: 'GET', url: '/widget/v1/widget.js', key: null })
    assert.equal(js.statusCode, 200)
    assert.match(String(js.headers['content-type']), /javascript/)
    assert.ok(gzipSync(js.body).length <= 40 * 1024)
    const s = await session()
    const m = await ok(widget('POST', '/messages', { token: s.token, body: { client_id: 'c6-ffffffff', text: 'Is anyone there?' } }), 201)
    const port = new URL(h.config.publicUrl).port
    const res = await httpRequest(`http://127.0.0.1:${port}/widget/v1/channels/${channel.web_chat.public_key}/stream?token=${encodeURIComponent(s.token)}`, { headers: { origin: SITE } })
    assert.equal(res.statusCode, 200)
    assert.equal(res.headers['access-control-allow-origin'], SITE)
    let text = ''
    const seen = (async () => {
      for await (const chunk of res.body) {
        text += chunk.toString()
        if (text.includes('Hello from the team')) return
      }
    })()
    await new Promise((r) => setTimeout(r, 200))
    await ok(post(h, `/inbox/conversations/${m.conversation_id}/messages`, { content: 'note', private: true }), 201)
    await ok(post(h, `/inbox/conversations/${m.conversation_id}/messages`, { content: 'Hello from the team' }), 201)
    await Promise.race([seen, new Promise((_, reject) => setTimeout(() => reject(new Error(`no message on the stream: ${text}`)), 5000))])
    res.body.destroy()
    // The visitor's typing reaches the team's event stream as presence of the contact, for their conversation.
    const signals: any[] = []
    const stop = h.app.kernel.feed.subscribe({ workspaceId: h.a.workspaceId, mode: 'live' }, { event: () => undefined, signal: (name, data) => name === 'presence' && signals.push(data) })
    assert.equal((await widget('POST', '/typing', { token: s.token, body: { typing: true } })).statusCode, 204)
    stop()
    assert.deepEqual(
      signals.map((p) => [p.conversation_id, p.actor.type, p.actor.id, p.state]),
      [[m.conversation_id, 'contact', s.visitor.id, 'typing']],
    )
    assertProblem(await widget('POST', '/typing', { token: s.token, body: { typing: 'yes' } }), 422, 'validation_failed')
    assert.match(text, /event: ready/)
    assert.match(text, /event: message\ndata: \{[^\n]*"from":"agent"[^\n]*Hello from the team/)
    assert.doesNotMatch(text, /note/)
    // Shown on the visitor's open stream: delivered.
    await new Promise((r) => setTimeout(r, 200))
    const last = (await ok(get(h, `/inbox/conversations/${m.conversation_id}/messages`))).data[0]
    assert.deepEqual([last.content, last.delivery.status], ['Hello from the team', 'delivered'])
  })

  it('data-subject requests: a visitor found by the e-mail they gave and by the verified user id; erased, their token opens nothing', async () => {
    const channels = () => h.app.kernel.modules.find((m) => m.name === 'channels')!
    const tenant = { workspaceId: h.a.workspaceId, mode: 'live' as const }
    const s = await session({ email: 'grace@example.com' })
    await ok(widget('POST', '/messages', { token: s.token, body: { client_id: 'c7-gggggggg', text: 'Please forget me later' } }), 201)
    const subject = { email: 'grace@example.com', phone: null, external_id: null }
    const found = await channels().privacy!.collect(h.app.kernel, h.app.services, tenant, subject)
    assert.deepEqual(
      found.records.channel_web_visitors.map((v: any) => [v.id, v.email]),
      [[s.visitor.id, 'grace@example.com']],
    )
    const byUser = await channels().privacy!.collect(h.app.kernel, h.app.services, tenant, { email: null, phone: null, external_id: 'user-42' })
    assert.equal(byUser.records.channel_web_visitors.length, 1, 'the verified user of the identity test')
    const erased = await channels().privacy!.erase(h.app.kernel, h.app.services, tenant, subject)
    assert.ok(erased.deleted >= 3, 'the visitor, their customer row and their conversation link')
    assert.deepEqual((await channels().privacy!.collect(h.app.kernel, h.app.services, tenant, subject)).records.channel_web_visitors, [])
    assertProblem(await widget('GET', '/messages', { token: s.token }), 401, 'unauthorized')
    // Another workspace's request finds nothing of this one.
    const other = await channels().privacy!.collect(h.app.kernel, h.app.services, { workspaceId: h.b.workspaceId, mode: 'live' }, { email: null, phone: null, external_id: 'user-42' })
    assert.deepEqual(other.records.channel_web_visitors, [])
  })

  it('files: an image or a PDF checked by its bytes, kept as a blob, shown to the visitor and in the inbox; anything else refused', async () => {
    const s = await session({ email: 'files@example.com' })
    const PNG = Buffer.concat([Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]), Buffer.alloc(64, 7)])
    const upload = (bytes: Buffer, type: string, clientId: string, filename = 'photo of <b>me</b>.png') =>
      h.request({
        method: 'POST',
        url: `/widget/v1/channels/${channel.web_chat.public_key}/files?client_id=${clientId}&filename=${encodeURIComponent(filename)}`,
        key: null,
        headers: { origin: SITE, authorization: `Bearer ${s.token}`, 'content-type': type },
        payload: bytes,
      })
    const sent = await upload(PNG, 'image/png', 'f1-aaaaaaaa')
    assert.equal(sent.statusCode, 201, sent.body)
    const r = JSON.parse(sent.body)
    assert.match(r.attachment_id, /^wfa_[0-9a-f]{32}$/)
    assert.equal(JSON.parse((await upload(PNG, 'image/png', 'f1-aaaaaaaa')).body).duplicate, true, 'a retried upload is the same message')
    const inbox = (await ok(get(h, `/inbox/conversations/${r.conversation_id}/messages?order=asc`))).data
    const file = inbox[inbox.length - 1].attachments[0]
    assert.deepEqual([file.filename, file.content_type, file.size_bytes], ['photo-of-b-me-b.png', 'image/png', PNG.length])
    assert.equal(file.url, `${h.config.publicUrl}/widget/v1/files/${r.attachment_id}/photo-of-b-me-b.png`)
    const history = await ok(widget('GET', '/messages', { token: s.token }))
    assert.equal(history.messages[history.messages.length - 1].attachments[0].url, file.url)
    const served = await h.request({ method: 'GET', url: new URL(file.url).pathname, key: null })
    assert.equal(served.statusCode, 200)
    assert.equal(served.headers['content-type'], 'image/png')
    assert.equal(served.headers['x-content-type-options'], 'nosniff')
    assert.match(String(served.headers['content-security-policy']), /sandbox/)
    assert.deepEqual(served.rawPayload, PNG)
    const pdf = await upload(Buffer.from('%PDF-1.4\n%\xe2\xe3\n1 0 obj\n'), 'application/pdf', 'f2-bbbbbbbb', 'invoice.pdf')
    assert.equal(pdf.statusCode, 201, pdf.body)
    // Bytes that are not what they claim, other types, nothing, too much.
    assertProblem(await upload(Buffer.from('<script>alert(1)</script>'), 'image/png', 'f3-cccccccc'), 415, 'unsupported_media_type')
    assertProblem(await upload(PNG, 'image/jpeg', 'f4-dddddddd'), 415, 'unsupported_media_type')
    assertProblem(await upload(Buffer.from('<svg/>'), 'image/svg+xml', 'f5-eeeeeeee'), 415, 'unsupported_media_type')
    assertProblem(await upload(Buffer.concat([PNG, Buffer.alloc(5 * 1024 * 1024)]), 'image/png', 'f6-ffffffff'), 413, 'payload_too_large')
    assertProblem(await h.request({ method: 'GET', url: '/widget/v1/files/wfa_00000000000000000000000000000000/x.png', key: null }), 404, 'resource_not_found')
    // Erased with the visitor: the blob goes too.
    const channels = h.app.kernel.modules.find((m) => m.name === 'channels')!
    await channels.privacy!.erase(h.app.kernel, h.app.services, { workspaceId: h.a.workspaceId, mode: 'live' }, { email: 'files@example.com', phone: null, external_id: null })
    assertProblem(await h.request({ method: 'GET', url: new URL(file.url).pathname, key: null }), 404, 'resource_not_found')
  })
})
