import { createHash, createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { MAX_MESSAGE_LENGTH } from '../../inbox/inbox.schemas.js'
import type { ChannelBotService } from '../channel-bot.service.js'
import type { Received } from '../channel-inbound.service.js'
import * as repo from '../channels.repository.js'
import type { ChannelsTable } from '../channels.tables.js'
import * as emails from './email.repository.js'
import type { ChannelEmailsTable } from './email.tables.js'
import { parseEmail, type ParsedEmail } from './mime.js'

/** How many Message-IDs a conversation's References carries (the newest; RFC 5322 lets us shorten it). */
const MAX_REFERENCES = 20

/** `support+<token>@example.com` → { base: support@example.com, token }; plus-addressing tags other than tokens are ignored. */
export function splitAddress(address: string): { base: string; token: string | null } {
  const a = address.trim().toLowerCase()
  const at = a.lastIndexOf('@')
  if (at < 1) return { base: a, token: null }
  const local = a.slice(0, at)
  const plus = local.indexOf('+')
  if (plus < 0) return { base: a, token: null }
  const tag = local.slice(plus + 1)
  return { base: `${local.slice(0, plus)}${a.slice(at)}`, token: /^r[0-9a-f]{24}$/.test(tag) ? tag : null }
}

/** The per-conversation reply address of a channel address and token. */
export function replyAddress(address: string, token: string): string {
  const at = address.lastIndexOf('@')
  return `${address.slice(0, at)}+${token}${address.slice(at)}`
}

export const newReplyToken = () => `r${randomBytes(12).toString('hex')}`

/** Where an inbound message was addressed: the channel, and the conversation when a reply address was used. */
export interface EmailRoute {
  channel: ChannelsTable
  email: ChannelEmailsTable
  /** The conversation of a reply address (`+<token>`), when it belongs to this channel. */
  conversationId: string | null
}

/**
 * Customers' emails into the inbox. Attachments are written to the blob store first (keys derived from the
 * Message-ID: a redelivery rewrites the same blobs); then one transaction holds the receipt (unique per
 * channel and Message-ID: a redelivery finds it and writes nothing), the inbox message (in the thread its
 * reply address, In-Reply-To or References name, else a new conversation), the thread's ids, and the bot's
 * job — and only after it commits is the mail accepted (SMTP 250, a webhook's 200).
 */
export class EmailInboundService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly bot: ChannelBotService,
  ) {}

  limits() {
    return { maxAttachmentBytes: this.k.config.email.maxAttachmentBytes, maxAttachments: MAX_ATTACHMENTS }
  }

  parse(raw: Buffer): Promise<ParsedEmail> {
    return parseEmail(raw, this.limits())
  }

  /** The channel (and conversation) an address names, or null: not ours. */
  async route(address: string): Promise<EmailRoute | null> {
    const { base, token } = splitAddress(address)
    const email = await emails.findEmailByAddress(this.k.db, base)
    if (!email) return null
    const channel = await repo.findChannelAnywhere(this.k.db, email.channel_id)
    if (!channel) return null
    const conv = token ? await emails.findEmailConversationByToken(this.k.db, token) : undefined
    return { channel, email, conversationId: conv && conv.channel_id === channel.id ? conv.conversation_id : null }
  }

  /** The first recipient of `mail` that is one of our channels (providers' webhooks: To, Cc, Delivered-To). */
  async routeAny(candidates: string[]): Promise<EmailRoute | null> {
    for (const a of candidates.slice(0, 50)) {
      const r = await this.route(a)
      if (r) return r
    }
    return null
  }

  async receive(to: EmailRoute, mail: ParsedEmail): Promise<Received> {
    const received = await this.write(to, mail)
    // A bounce of one of our replies: that reply's delivery ends `undelivered` (only forward moves count, so a
    // redelivered report changes nothing). Our Message-ID is the delivery's provider id.
    if (!received.duplicate && mail.bounce) {
      await this.services.channels.outbound.applyStatus(to.channel, null, mail.bounce.of, 'undelivered', { code: 'bounced', message: mail.bounce.reason })
    }
    return received
  }

  private async write(to: EmailRoute, mail: ParsedEmail): Promise<Received> {
    const { channel } = to
    const tenant: Tenant = { workspaceId: channel.workspace_id, mode: channel.mode }
    const attachments = await this.storeAttachments(channel, mail)
    const now = iso(this.k.clock.now())
    const content = this.contentOf(mail)
    return this.k.transaction(sideOwner(tenant), async (tx) => {
      const fresh = await repo.insertReceipt(tx, {
        channel_id: channel.id,
        provider_sid: mail.messageId,
        workspace_id: tenant.workspaceId,
        mode: tenant.mode,
        message_id: '',
        bot_reply_id: null,
        received_at: now,
        // No Twilio media: the attachments are under the thread's folder.
        media_folder: '',
      })
      if (!fresh) return { duplicate: true, conversationId: null, messageId: null }
      // A delivery report belongs with the message it returns.
      const referenced = [mail.bounce?.of ?? null, mail.inReplyTo, ...[...mail.references].reverse()].filter((x): x is string => x !== null)
      const continueId = to.conversationId ?? (await emails.conversationOfHeaders(tx, tenant, channel.id, referenced))
      const received = await this.services.inbox.turns.receive(tx, tenant, {
        continueId,
        channel: 'email',
        contact: { email: mail.from.address, ...(mail.from.name && /\S/.test(mail.from.name) ? { name: mail.from.name } : {}) },
        content,
        attachments,
        metadata: { channel_id: channel.id },
        subject: mail.subject.trim() ? mail.subject.trim().slice(0, 300) : null,
      })
      // A new conversation's thread was made by its conversation.created (email-start.ts): its ids start here.
      const thread = await emails.findEmailConversation(tx, tenant, received.conversationId)
      const refs = [...(thread && !received.started ? thread.references_ids.split(' ').filter(Boolean) : mail.references), mail.messageId]
        .filter((x, i, all) => all.indexOf(x) === i)
        .slice(-MAX_REFERENCES)
      if (thread) {
        await emails.updateEmailConversation(tx, tenant, received.conversationId, { last_header_id: mail.messageId, references_ids: refs.join(' ') })
      } else {
        await repo.insertConversationLink(tx, {
          conversation_id: received.conversationId,
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          channel_id: channel.id,
          contact_phone: mail.from.address,
          bot_state: 'active',
        })
        await emails.insertEmailConversation(tx, {
          conversation_id: received.conversationId,
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          channel_id: channel.id,
          contact_email: mail.from.address,
          reply_token: newReplyToken(),
          subject: mail.subject.trim().slice(0, 300),
          last_header_id: mail.messageId,
          references_ids: refs.join(' '),
        })
      }
      await emails.insertThreadHeader(tx, tenant, channel.id, mail.messageId, received.conversationId)
      await repo.setReceiptMessage(tx, tenant, channel.id, mail.messageId, received.messageId, received.conversationId)
      // Auto-replies and bounces land in the inbox (agents see them) but are never answered (RFC 3834): two
      // auto-responders would answer each other for ever.
      if (mail.automatic === null) await this.bot.afterCustomerMessage(tx, tenant, channel, { conversation_id: received.conversationId, provider_sid: mail.messageId })
      return { duplicate: false, conversationId: received.conversationId, messageId: received.messageId }
    })
  }

  private contentOf(mail: ParsedEmail): string {
    const parts = [mail.text]
    if (mail.automatic) parts.unshift(mail.automatic === 'bounce' ? '[Delivery report]' : '[Automatic reply]')
    if (mail.omitted.length) parts.push(`[Attachments not kept (over the size or count limit): ${mail.omitted.join(', ')}]`)
    const content = parts.filter((p) => p.trim()).join('\n\n') || (mail.attachments.length ? '[Attachments only]' : '[Empty message]')
    return content.length > MAX_MESSAGE_LENGTH ? content.slice(0, MAX_MESSAGE_LENGTH) : content
  }

  /** Writes the attachments as blobs; their URLs are capability links signed with the server's key. */
  private async storeAttachments(channel: ChannelsTable, mail: ParsedEmail) {
    const folder = attachmentFolder(channel.id, mail.messageId)
    const out: { url: string; filename: string | null; content_type: string | null; size_bytes: number | null }[] = []
    for (const [i, a] of mail.attachments.entries()) {
      const key = attachmentKey(channel.id, folder, i)
      await this.k.blobs.put(key, a.content, { contentType: a.contentType })
      out.push({ url: this.attachmentUrl(channel.id, folder, i), filename: a.filename, content_type: a.contentType, size_bytes: a.content.length })
    }
    return out
  }

  attachmentUrl(channelId: string, folder: string, index: number): string {
    const path = `/channels/${channelId}/email/attachments/${folder}/${index}`
    return `${this.k.config.publicUrl}${path}?sig=${this.attachmentSignature(path)}`
  }

  /** Whether `sig` signs the attachment path (a link only the service can make: the path alone is guessable by no one, the signature by no one without the key). */
  attachmentSigned(path: string, sig: string): boolean {
    const want = Buffer.from(this.attachmentSignature(path))
    const got = Buffer.from(sig)
    return want.length === got.length && timingSafeEqual(want, got)
  }

  private attachmentSignature(path: string): string {
    return createHmac('sha256', this.k.deriveKey('channels-email-attachments')).update(path).digest('base64url')
  }
}

/** Attachments kept per message. */
export const MAX_ATTACHMENTS = 20
export const attachmentFolder = (channelId: string, messageId: string) => createHash('sha256').update(`${channelId}\n${messageId}`).digest('hex').slice(0, 32)
export const attachmentKey = (channelId: string, folder: string, index: number) => `channels/${channelId.toLowerCase()}/email/${folder}/${index}`

/** Deletes every slot of one received e-mail's attachment folder (erasure, a deleted conversation); a missing blob is no error. */
export async function deleteAttachmentFolder(k: Kernel, channelId: string, messageId: string): Promise<void> {
  const folder = attachmentFolder(channelId, messageId)
  await Promise.all(Array.from({ length: MAX_ATTACHMENTS }, (_, i) => k.blobs.delete(attachmentKey(channelId, folder, i))))
}
