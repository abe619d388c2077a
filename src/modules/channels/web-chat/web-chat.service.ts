import { createHmac, timingSafeEqual } from 'node:crypto'
import { iso } from '../../../kernel/clock.js'
import { AppError } from '../../../kernel/errors.js'
import { newId } from '../../../kernel/ids.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { MessageT } from '../../inbox/inbox.schemas.js'
import type { ChannelInboundService } from '../channel-inbound.service.js'
import type { ChannelOutboundService } from '../channel-outbound.service.js'
import * as channelsRepo from '../channels.repository.js'
import type { ChannelsTable, ChannelWebVisitorsTable } from '../channels.tables.js'
import * as repo from './web-chat.repository.js'
import { identitySecretOf, widgetSettingsOf } from './web-chat.settings.js'

/** A visitor token lives this long; every session call hands out a fresh one. */
const TOKEN_TTL_MS = 30 * 24 * 3600_000
/** A visitor's typing signal lasts this long unless refreshed (the widget refreshes every few seconds). */
const TYPING_TTL_MS = 10_000
/** Messages the widget shows of a returning visitor's conversation. */
const HISTORY_LIMIT = 100

/** A message as the visitor sees it: who wrote it, never which agent or bot id, never private notes. */
/** The purpose of the key that signs visitor tokens and names visitors' files (kernel.deriveKey). */
export const WEB_CHAT_KEY = 'channels:web-chat-visitor-token'

export interface VisitorMessage {
  id: string
  conversation_id: string
  from: 'visitor' | 'bot' | 'agent'
  text: string
  attachments: { url: string; filename: string | null; content_type: string | null }[]
  created_at: string
}

export interface VisitorSession {
  channel: ChannelsTable
  visitor: ChannelWebVisitorsTable
  tenant: Tenant
}

export interface SessionInput {
  token?: string
  user_id?: string
  user_hash?: string
  email?: string
  name?: string
}

const b64 = (s: string) => Buffer.from(s).toString('base64url')

export function visitorMessage(m: Pick<MessageT, 'id' | 'conversation_id' | 'direction' | 'author' | 'content' | 'attachments' | 'created_at'>): VisitorMessage {
  return {
    id: m.id,
    conversation_id: m.conversation_id,
    from: m.direction === 'inbound' ? 'visitor' : m.author.type === 'bot' ? 'bot' : 'agent',
    text: m.content,
    attachments: m.attachments.map((a) => ({ url: a.url, filename: a.filename, content_type: a.content_type })),
    created_at: m.created_at,
  }
}

/**
 * The widget's visitors: sessions by signed token (HMAC-SHA256 under a key derived from the server secret;
 * nothing to look up, nothing to steal from the database), optional identity verification (the host signs
 * its user id with the channel's identity secret, as Intercom does), their messages into the inbox through
 * the channels' inbound path (one message per client id: a retried send is the same message), and their
 * own conversation's history.
 */
export class WebChatService {
  private readonly tokenKey: Buffer

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly inbound: ChannelInboundService,
    private readonly outbound: ChannelOutboundService,
  ) {
    this.tokenKey = k.deriveKey(WEB_CHAT_KEY)
  }

  /** The channel of a public key, or 404 (the same for a key of a deleted channel). */
  async channelByKey(key: string): Promise<ChannelsTable> {
    const channel = /^wck_[0-9a-f]{24}$/.test(key) ? await repo.findChannelByWidgetKey(this.k.db, key) : undefined
    if (!channel) throw new AppError('resource_not_found', 'No web chat channel has this public key.')
    return channel
  }

  /** Whether a browser page of `origin` may use the channel's widget API. */
  originAllowed(channel: ChannelsTable, origin: string | undefined): boolean {
    return !!origin && widgetSettingsOf(channel).allowed_origins.includes(origin.toLowerCase())
  }

  private sign(channelId: string, visitorId: string): string {
    const payload = b64(JSON.stringify({ c: channelId, v: visitorId, x: this.k.clock.now().getTime() + TOKEN_TTL_MS }))
    return `wvt_${payload}.${createHmac('sha256', this.tokenKey).update(payload).digest('base64url')}`
  }

  private verify(token: string): { c: string; v: string } | null {
    const m = /^wvt_([A-Za-z0-9_-]{1,400})\.([A-Za-z0-9_-]{43})$/.exec(token)
    if (!m) return null
    const want = createHmac('sha256', this.tokenKey).update(m[1]).digest()
    const got = Buffer.from(m[2], 'base64url')
    if (got.length !== want.length || !timingSafeEqual(got, want)) return null
    try {
      const p = JSON.parse(Buffer.from(m[1], 'base64url').toString()) as { c: unknown; v: unknown; x: unknown }
      if (typeof p.c !== 'string' || typeof p.v !== 'string' || typeof p.x !== 'number' || p.x < this.k.clock.now().getTime()) return null
      return { c: p.c, v: p.v }
    } catch {
      return null
    }
  }

  /** The visitor a token names on this channel, or 401 (forged, expired, another channel's, a forgotten visitor). */
  async authenticate(channel: ChannelsTable, token: string | undefined): Promise<VisitorSession> {
    const claims = token ? this.verify(token) : null
    const tenant: Tenant = { workspaceId: channel.workspace_id, mode: channel.mode }
    const visitor = claims && claims.c === channel.id ? await repo.findVisitor(this.k.db, tenant, channel.id, claims.v) : undefined
    if (!visitor) throw new AppError('unauthorized', 'The visitor token is missing, expired or not this channel’s: start a session (POST …/session).')
    return { channel, visitor, tenant }
  }

  /**
   * Starts or resumes a visitor: the token's visitor when it is valid, the verified user's visitor when the
   * host names one (`user_id` with its `user_hash`), else a new one. A user id without a valid hash is
   * refused (403): nobody reads another user's history by typing their id.
   */
  async session(channel: ChannelsTable, input: SessionInput): Promise<{ token: string; visitor: ChannelWebVisitorsTable }> {
    const tenant: Tenant = { workspaceId: channel.workspace_id, mode: channel.mode }
    const settings = widgetSettingsOf(channel)
    const now = iso(this.k.clock.now())
    const claims = input.token ? this.verify(input.token) : null
    let visitor = claims && claims.c === channel.id ? await repo.findVisitor(this.k.db, tenant, channel.id, claims.v) : undefined
    if (input.user_id !== undefined) {
      const secret = settings.identity_verification ? identitySecretOf(this.k, channel) : null
      if (!secret)
        throw new AppError('validation_failed', 'user_id needs identity verification on the channel (web_chat.identity_verification).', {
          errors: [{ pointer: '/body/user_id', detail: 'identity verification is off' }],
        })
      if (!hashMatches(secret, input.user_id, input.user_hash)) throw new AppError('forbidden', 'user_hash is not the HMAC-SHA256 of user_id with the channel’s identity secret.')
      const known = await repo.findVisitorByUser(this.k.db, tenant, channel.id, input.user_id)
      // An anonymous visitor who signs in becomes that user (their chat so far goes with them).
      if (known) visitor = known
      else if (visitor && visitor.user_id === null) {
        await repo.updateVisitor(this.k.db, tenant, visitor.id, { user_id: input.user_id })
        visitor = { ...visitor, user_id: input.user_id }
      } else visitor = undefined
      visitor ??= await this.newVisitor(channel, tenant, input.user_id, now)
    } else if (visitor?.user_id) {
      // A signed-in user's token on a page that no longer names them (signed out): a fresh anonymous visitor.
      visitor = undefined
    }
    visitor ??= await this.newVisitor(channel, tenant, null, now)
    const profile: Partial<ChannelWebVisitorsTable> = { last_seen_at: now }
    if (input.email) profile.email = input.email.toLowerCase()
    if (input.name) profile.name = input.name
    await repo.updateVisitor(this.k.db, tenant, visitor.id, profile)
    visitor = { ...visitor, ...profile }
    return { token: this.sign(channel.id, visitor.id), visitor }
  }

  private async newVisitor(channel: ChannelsTable, tenant: Tenant, userId: string | null, now: string): Promise<ChannelWebVisitorsTable> {
    const row: ChannelWebVisitorsTable = {
      id: newId('vis'),
      channel_id: channel.id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      user_id: userId,
      email: null,
      name: null,
      created_at: now,
      last_seen_at: now,
    }
    await repo.insertVisitor(this.k.db, row)
    return row
  }

  /** Pre-chat capture (and later corrections): the visitor's e-mail and name, also on their open conversation. */
  async profile(s: VisitorSession, input: { email?: string; name?: string }): Promise<ChannelWebVisitorsTable> {
    const patch: Partial<ChannelWebVisitorsTable> = {}
    if (input.email) patch.email = input.email.toLowerCase()
    if (input.name) patch.name = input.name
    await repo.updateVisitor(this.k.db, s.tenant, s.visitor.id, patch)
    const current = await this.currentConversation(s)
    if (current && (patch.email || patch.name)) {
      await this.services.inbox.conversations.update(s.tenant, current, { contact: { ...(patch.email ? { email: patch.email } : {}), ...(patch.name ? { name: patch.name } : {}) } })
    }
    return { ...s.visitor, ...patch }
  }

  /** A visitor's message: into their conversation (or a new one), once per `clientId` whatever the retries. */
  async send(s: VisitorSession, clientId: string, text: string): Promise<{ duplicate: boolean; conversationId: string | null; messageId: string | null }> {
    if (widgetSettingsOf(s.channel).require_email && !s.visitor.email) {
      throw new AppError('validation_failed', 'This chat asks for your e-mail address first.', { errors: [{ pointer: '/body/email', detail: 'required before the first message' }] })
    }
    return this.inbound.receive(s.channel, {
      sid: webChatSid(s.visitor.id, clientId),
      from: s.visitor.id,
      body: text,
      media: [],
      optOutType: null,
      contact: { name: s.visitor.name, email: s.visitor.email, external_id: s.visitor.user_id },
    })
  }

  /**
   * A file from the visitor (an image or a PDF, checked by its first bytes, not only its declared type):
   * stored as a blob, then its message written through the inbound path like a text. Its id comes from the
   * visitor and the client id, so a retried upload replaces the same blob and finds its receipt.
   */
  async attach(
    s: VisitorSession,
    clientId: string,
    filename: string,
    declared: string,
    bytes: Buffer,
  ): Promise<{ duplicate: boolean; conversationId: string | null; messageId: string | null; attachmentId: string }> {
    const type = sniff(bytes)
    if (!type || type !== declared) {
      throw new AppError(
        'unsupported_media_type',
        `Only PNG, JPEG, GIF, WebP images and PDF documents are taken, and the bytes must be what Content-Type says (${declared.slice(0, 60)}${type ? `; they are ${type}` : '; they are none of these'}).`,
      )
    }
    const id = webChatFileId(this.tokenKey, s.visitor.id, clientId)
    const key = `channels/web-chat/${s.channel.id.toLowerCase()}/${id}`
    const name = safeFilename(filename, type)
    await this.k.blobs.put(key, bytes, { contentType: type })
    await repo.insertAttachment(this.k.db, {
      id,
      channel_id: s.channel.id,
      visitor_id: s.visitor.id,
      workspace_id: s.tenant.workspaceId,
      mode: s.tenant.mode,
      blob_key: key,
      filename: name,
      content_type: type,
      size_bytes: bytes.length,
      created_at: iso(this.k.clock.now()),
    })
    if (widgetSettingsOf(s.channel).require_email && !s.visitor.email) {
      throw new AppError('validation_failed', 'This chat asks for your e-mail address first.', { errors: [{ pointer: '/body/email', detail: 'required before the first message' }] })
    }
    const url = `${this.k.config.publicUrl}/widget/v1/files/${id}/${encodeURIComponent(name)}`
    const r = await this.inbound.receive(s.channel, {
      sid: webChatSid(s.visitor.id, clientId),
      from: s.visitor.id,
      body: '',
      media: [],
      files: [{ url, filename: name, content_type: type, size_bytes: bytes.length }],
      optOutType: null,
      contact: { name: s.visitor.name, email: s.visitor.email, external_id: s.visitor.user_id },
    })
    return { ...r, attachmentId: id }
  }

  /**
   * The visitor is typing (or stopped): a presence signal on the workspace's event stream, as an agent's is
   * (`actor.type` `contact`), for their current conversation; nothing stored, nothing when there is none yet.
   */
  async typing(s: VisitorSession, typing: boolean): Promise<void> {
    const conversationId = await this.currentConversation(s)
    if (!conversationId) return
    const now = this.k.clock.now().getTime()
    this.k.feed.signal(s.tenant, 'presence', {
      object: 'presence',
      conversation_id: conversationId,
      actor: { type: 'contact', id: s.visitor.id, name: s.visitor.name ?? s.visitor.email },
      state: typing ? 'typing' : 'idle',
      expires_at: iso(new Date(now + (typing ? TYPING_TTL_MS : 0))),
    })
  }

  /** The visitor's current conversation id (the one their next message continues), if any. */
  async currentConversation(s: VisitorSession): Promise<string | null> {
    const contact = await channelsRepo.findContact(this.k.db, s.tenant, s.channel.id, s.visitor.id)
    return contact?.conversation_id ?? null
  }

  /** Whether a conversation is this visitor's (the stream sends nothing of any other). */
  async owns(s: VisitorSession, conversationId: string): Promise<boolean> {
    const link = await channelsRepo.findConversationLink(this.k.db, s.tenant, conversationId)
    return !!link && link.channel_id === s.channel.id && link.contact_phone === s.visitor.id
  }

  /** Whether a person has the conversation: the bot handed off, or someone is assigned. */
  async state(s: VisitorSession, conversationId: string): Promise<{ handed_off: boolean; status: string }> {
    const [link, conversation] = await Promise.all([
      channelsRepo.findConversationLink(this.k.db, s.tenant, conversationId),
      this.services.inbox.conversations.get(s.tenant, conversationId).catch(() => null),
    ])
    return { handed_off: link?.bot_state === 'handed_off' || !!conversation?.assignee_id, status: conversation?.status ?? 'resolved' }
  }

  /** A returning visitor's current conversation: its messages (oldest first, no private notes) and state. */
  async history(s: VisitorSession): Promise<{ conversation_id: string | null; handed_off: boolean; status: string | null; messages: VisitorMessage[] }> {
    const conversationId = await this.currentConversation(s)
    if (!conversationId) return { conversation_id: null, handed_off: false, status: null, messages: [] }
    const page = await this.services.inbox.messages.list(s.tenant, conversationId, { limit: HISTORY_LIMIT, order: 'desc' }).catch(() => null)
    if (!page) return { conversation_id: null, handed_off: false, status: null, messages: [] }
    const state = await this.state(s, conversationId)
    const messages = page.data
      .filter((m) => !m.private)
      .reverse()
      .map(visitorMessage)
    await this.delivered(s, messages)
    return { conversation_id: conversationId, ...state, messages }
  }

  /**
   * The widget has shown these replies to the visitor (its open stream, or the history it read): their
   * delivery moves to `delivered`, as a carrier's receipt moves an SMS (forward only, via applyStatus).
   */
  async delivered(s: VisitorSession, messages: VisitorMessage[]): Promise<void> {
    const ids = messages.filter((m) => m.from !== 'visitor').map((m) => m.id)
    for (const d of await repo.undelivered(this.k.db, s.tenant, s.channel.id, ids)) {
      await this.outbound.applyStatus(s.channel, d.message_id, d.provider_sid ?? `wc_shown_${d.message_id}`, 'delivered', { code: null, message: null })
    }
  }
}

/** The host's signature of its user id: hex HMAC-SHA256 with the identity secret (as Intercom's user_hash). */
/** A visitor's file: `wfa_` + 32 hex of the visitor and the message's client id (`tokenKey`: the widget's derived key, WEB_CHAT_KEY). */
export function webChatFileId(tokenKey: Buffer, visitorId: string, clientId: string): string {
  return `wfa_${createHmac('sha256', tokenKey).update(`${visitorId}:${clientId}`).digest('hex').slice(0, 32)}`
}

/** A visitor's message's receipt sid: the visitor and the message's client id (a retry is the same message). */
export const webChatSid = (visitorId: string, clientId: string): string => `wc:${visitorId}:${clientId}`

/** The file a web chat receipt's message carries, if it is a file's (its sid is webChatSid's). */
export function webChatFileOfSid(tokenKey: Buffer, sid: string): string | null {
  const m = /^wc:([^:]+):(.+)$/.exec(sid)
  return m ? webChatFileId(tokenKey, m[1], m[2]) : null
}

export function userHash(secret: string, userId: string): string {
  return createHmac('sha256', secret).update(userId).digest('hex')
}

/** What the first bytes say a file is, among the types the widget takes; null for anything else. */
export function sniff(b: Buffer): string | null {
  if (b.length >= 8 && b.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return 'image/png'
  if (b.length >= 3 && b[0] === 0xff && b[1] === 0xd8 && b[2] === 0xff) return 'image/jpeg'
  if (b.length >= 6 && (b.subarray(0, 6).toString('latin1') === 'GIF87a' || b.subarray(0, 6).toString('latin1') === 'GIF89a')) return 'image/gif'
  if (b.length >= 12 && b.subarray(0, 4).toString('latin1') === 'RIFF' && b.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp'
  if (b.length >= 5 && b.subarray(0, 5).toString('latin1') === '%PDF-') return 'application/pdf'
  return null
}

const EXTENSION: Record<string, string> = { 'image/png': 'png', 'image/jpeg': 'jpg', 'image/gif': 'gif', 'image/webp': 'webp', 'application/pdf': 'pdf' }

/** A name safe in a URL path and a header: letters, digits, dot, dash, underscore; the type's extension. */
export function safeFilename(raw: string, type: string): string {
  const base =
    raw
      .replace(/\.[A-Za-z0-9]{1,5}$/, '')
      .replace(/[^A-Za-z0-9._-]+/g, '-')
      .replace(/^[-.]+|[-.]+$/g, '')
      .slice(0, 80) || 'file'
  return `${base}.${EXTENSION[type]}`
}

function hashMatches(secret: string, userId: string, given: string | undefined): boolean {
  if (!given || !/^[0-9a-fA-F]{64}$/.test(given)) return false
  return timingSafeEqual(Buffer.from(userHash(secret, userId), 'hex'), Buffer.from(given, 'hex'))
}
