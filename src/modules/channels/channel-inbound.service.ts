import { randomBytes } from 'node:crypto'
import { iso } from '../../kernel/clock.js'
import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { MAX_MESSAGE_LENGTH } from '../inbox/inbox.schemas.js'
import type { ChannelBotService } from './channel-bot.service.js'
import { channelOr404 } from './channels-resource.service.js'
import * as repo from './channels.repository.js'
import type { ChannelInboundT, SimulateChannelMessageBodyT } from './channels.schemas.js'
import type { ChannelsTable } from './channels.tables.js'
import { claimPendingMedia, clearReceiptMedia } from './providers/messaging.repository.js'

/** A message a provider received for one of our channels, as its webhook says it. */
export interface InboundText {
  /** The provider's message id (Twilio MessageSid): what makes a retried webhook the same message. */
  sid: string
  /** E.164 of the customer (without `whatsapp:`). */
  from: string
  body: string
  /** Media as links: a provider's URLs, or our signed links to media already stored (with name and size). */
  media: { url: string; content_type: string | null; filename?: string | null; size_bytes?: number | null }[]
  /**
   * Media stored before the transaction (Twilio): the pending folder the message claims, and the provider's
   * links to use instead should the folder have been taken (swept, erased) in the meantime.
   */
  stored?: { folder: string; links: { url: string; content_type: string | null }[] }
  /** Twilio's own reading of an opt-out keyword (Advanced Opt-Out), when it sends one. */
  optOutType: string | null
  /** Files already stored (a web chat visitor's upload): attachments as they are, and no bot answer to them. */
  files?: { url: string; filename: string | null; content_type: string | null; size_bytes: number | null }[]
  /** Who the customer is, for a new conversation, when not just the `from` phone number (a web chat visitor). */
  contact?: { name?: string | null; email?: string | null; external_id?: string | null }
}

export interface Received {
  /** The provider's sid was received before: nothing was written. */
  duplicate: boolean
  conversationId: string | null
  messageId: string | null
}

// Twilio Messaging's default keywords (docs: "Twilio's default opt-out keywords"): a message that is
// exactly one of them, any case, blanks around ignored.
const OPT_OUT = new Set(['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT', 'OPTOUT', 'REVOKE'])
const OPT_IN = new Set(['START', 'YES', 'UNSTOP'])

/** What the message does to the customer's consent: 'out', 'in', or null (nothing). */
export function consentOf(text: Pick<InboundText, 'body' | 'optOutType'>): 'out' | 'in' | null {
  const said = (text.optOutType ?? '').trim().toUpperCase()
  if (said === 'STOP') return 'out'
  if (said === 'START') return 'in'
  const word = text.body.trim().toUpperCase()
  if (OPT_OUT.has(word)) return 'out'
  if (OPT_IN.has(word)) return 'in'
  return null
}

/**
 * Customers' messages into the inbox. One transaction per message: the receipt (unique per channel and
 * provider sid — a retry finds it and writes nothing), the customer's row (locked: their messages queue
 * one behind the other), the inbox message (in their open conversation, or a new one), the opt-out.
 */
export class ChannelInboundService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly bot: ChannelBotService,
  ) {}

  /** simulateChannelMessage: a message of a simulated channel, through the same path as a provider's. */
  async simulate(tenant: Tenant, id: string, body: SimulateChannelMessageBodyT): Promise<ChannelInboundT> {
    const channel = await channelOr404(this.k, tenant, id)
    if (channel.provider !== 'simulated')
      throw new AppError(
        'channel_not_simulated',
        `Channel ${id} is on ${channel.provider}: its messages come from the provider's webhook (${channel.provider === 'twilio' ? 'webhooks.messages_url' : 'none'}).`,
      )
    const sid = body.message_sid ?? `SM${randomBytes(16).toString('hex')}`
    const text: InboundText = { sid, from: body.from, body: body.body, media: (body.media_urls ?? []).map((url) => ({ url, content_type: null })), optOutType: null }
    // The answer is made inside the transaction: an Idempotency-Key commits with it and replays it.
    return this.receive(channel, text, tenant, (r): ChannelInboundT => ({
      object: 'channel_inbound',
      channel_id: channel.id,
      message_sid: sid,
      duplicate: r.duplicate,
      conversation_id: r.conversationId,
      message_id: r.messageId,
    }))
  }

  /** `owner`: the principal of an API request (its Idempotency-Key commits with the message), null for a webhook. */
  async receive<T = Received>(channel: ChannelsTable, text: InboundText, owner: object | null = null, answer: (r: Received) => T = (r) => r as T): Promise<T> {
    const tenant: Tenant = { workspaceId: channel.workspace_id, mode: channel.mode }
    const now = iso(this.k.clock.now())
    return this.k.transaction(owner, async (tx) => {
      const fresh = await repo.insertReceipt(tx, {
        channel_id: channel.id,
        provider_sid: text.sid,
        workspace_id: tenant.workspaceId,
        mode: tenant.mode,
        message_id: '',
        contact_phone: text.from,
        bot_reply_id: null,
        received_at: now,
        media_folder: text.stored?.folder ?? '',
      })
      if (!fresh) return answer({ duplicate: true, conversationId: null, messageId: null })
      let media = text.media
      if (text.stored && !(await claimPendingMedia(tx, tenant, text.stored.folder))) {
        // Taken by the media sweep or an erasure (its blobs are being deleted): never link them.
        this.k.log.warn({ channel: channel.id, sid: text.sid }, 'stored inbound media were swept before the message committed; it links the provider’s URLs')
        media = text.stored.links
        await clearReceiptMedia(tx, tenant, channel.id, text.sid)
      }
      const contact = await repo.lockContact(tx, tenant, channel.id, text.from, now, this.k.database.engine === 'postgres')
      const received = await this.services.inbox.turns.receive(tx, tenant, {
        continueId: contact.conversation_id,
        channel: channel.type === 'web_chat' ? 'chat' : channel.type,
        contact: text.contact ?? { phone: text.from },
        content: text.body.length > MAX_MESSAGE_LENGTH ? text.body.slice(0, MAX_MESSAGE_LENGTH) : text.body,
        attachments: [...media.map((m) => ({ url: m.url, filename: m.filename ?? null, content_type: m.content_type, size_bytes: m.size_bytes ?? null })), ...(text.files ?? [])],
        metadata: { channel_id: channel.id },
      })
      // Consent keywords are a phone carrier's convention; in a chat "stop" is just a word.
      const consent = channel.type === 'web_chat' ? null : consentOf(text)
      const patch: Parameters<typeof repo.updateContact>[4] = { conversation_id: received.conversationId, last_inbound_at: now, updated_at: now }
      if (consent === 'out' && contact.opted_out === 0) Object.assign(patch, { opted_out: 1, opted_out_at: now })
      if (consent === 'in' && contact.opted_out === 1) Object.assign(patch, { opted_out: 0, opted_out_at: null })
      await repo.updateContact(tx, tenant, channel.id, text.from, patch)
      if (received.started)
        await repo.insertConversationLink(tx, {
          conversation_id: received.conversationId,
          workspace_id: tenant.workspaceId,
          mode: tenant.mode,
          channel_id: channel.id,
          contact_phone: text.from,
          bot_state: 'active',
        })
      await repo.setReceiptMessage(tx, tenant, channel.id, text.sid, received.messageId, received.conversationId)
      // The bot (or the out-of-hours reply) answers questions, not consent keywords (Twilio answers STOP and START itself).
      if (consent === null && !text.files?.length) await this.bot.afterCustomerMessage(tx, tenant, channel, { conversation_id: received.conversationId, provider_sid: text.sid })
      return answer({ duplicate: false, conversationId: received.conversationId, messageId: received.messageId })
    })
  }
}
