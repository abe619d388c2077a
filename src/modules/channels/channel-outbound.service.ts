import { randomBytes } from 'node:crypto'
import { inheritAudit, sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import type { Executor } from '../../kernel/db/database.js'
import { type EventEnvelope, eventTenant } from '../../kernel/events/events.js'
import { defineJob, enqueue, type ExhaustedInfo, type JobContext, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { CarrierError } from '../../kernel/twilio/http.js'
import type { ChannelsResourceService } from './channels-resource.service.js'
import * as repo from './channels.repository.js'
import type { ChannelDeliveriesTable, ChannelsTable, DeliveryStatus } from './channels.tables.js'
import { channelWebhooks } from './channels.views.js'
import type { MessagingProvider } from './providers/provider.types.js'
import { TwilioMessagingAdapter } from './providers/twilio-messaging.adapter.js'
import { templateOf, templateVariables, windowOpen } from './providers/whatsapp-window.js'
import { AppError } from '../../kernel/errors.js'

export interface SendPayload {
  workspace_id: string
  mode: Tenant['mode']
  message_id: string
  /** A later check of a send whose outcome was unknown. */
  check?: boolean
}

/** Retries of a send the provider refused for now (429, 408) or that failed before reaching it. */
const SEND_RETRIES = [5, 30, 120, 600]
/** How long a send of unknown outcome waits for the provider's status callback before it counts as failed. */
const UNKNOWN_OUTCOME_WAIT_MS = 10 * 60_000
/** The mark a send writes before asking the provider: a run that finds it never asks again. */
const sending = (messageId: string) => `sending:${messageId}`
/** Callbacks arrive in any order: a state only moves forward (the final ones are equal). */
// `read` (a web chat visitor saw the reply) comes after `delivered`.
const RANK: Record<DeliveryStatus, number> = { queued: 0, sent: 1, delivered: 2, read: 3, failed: 2, undelivered: 2 }

/** The simulated provider: every send is accepted and delivered at once, recorded in channel_deliveries. */
const SIMULATED: MessagingProvider = { send: async () => ({ sid: `SM${randomBytes(16).toString('hex')}`, status: 'delivered' }) }
/** A reply outside WhatsApp's 24-hour window with no template to send instead. */
const WINDOW_CLOSED = 'More than 24 hours have passed since the customer last wrote: WhatsApp takes only an approved template now, and the channel names none (whatsapp.template); nothing was sent.'
/** Twilio takes at most 10 MediaUrl per message. */
const MAX_MEDIA = 10

/** Web chat: the visitor's widget reads the conversation itself (its stream and history), so a reply is sent once written. */
const WIDGET: MessagingProvider = { send: async () => ({ sid: `wc_${randomBytes(16).toString('hex')}`, status: 'sent' }) }

/**
 * Outbound messages of channel conversations: a message written in a conversation that a channel talks
 * to (an agent's or a bot's, not a private note) gets its delivery row and its send job in the same
 * transaction (the in-transaction subscriber); the job sends it once through the channel's provider; the
 * provider's status callbacks move its delivery state, shown on the inbox message.
 */
export class ChannelOutboundService {
  readonly sendJob: JobDefinition<SendPayload>

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly channels: ChannelsResourceService,
  ) {
    this.sendJob = defineJob<SendPayload>({
      name: 'channels.send-message',
      retrySchedule: SEND_RETRIES,
      run: (p, ctx) => this.send(p, ctx),
      onExhausted: (p, info) => this.exhausted(p, info),
    })
  }

  /** In the transaction of every `message.created`: one indexed read for messages of other conversations. */
  readonly subscriber = async (tx: Executor, event: EventEnvelope): Promise<void> => {
    if (event.type !== 'message.created') return
    const m = event.data.object as { id: string; conversation_id: string; direction: string; private: boolean; author?: { type: string } }
    if (m.direction !== 'outbound' || m.private) return
    const tenant = eventTenant(event)
    const link = await repo.findConversationLink(tx, tenant, m.conversation_id)
    if (!link) return
    const now = iso(this.k.clock.now())
    const contact = await repo.findContact(tx, tenant, link.channel_id, link.contact_phone)
    const channel = await repo.findChannel(tx, tenant, link.channel_id)
    let refusal = !channel
      ? ['channel_deleted', 'The channel of this conversation was deleted; nothing was sent.']
      : contact?.opted_out === 1
        ? ['opted_out', `${link.contact_phone} opted out of messages from this channel (STOP); nothing was sent until they write START.`]
        : null
    if (!refusal && channel?.type === 'whatsapp' && !windowOpen(contact, this.k.clock.now()) && !templateOf(channel)) {
      // A person (or their integration) writing gets the refusal at once and keeps their text; a bot's or an automation's message is kept with a failed delivery.
      if (m.author?.type === 'member' || m.author?.type === 'api_key') throw new AppError('whatsapp_window_closed', WINDOW_CLOSED)
      refusal = ['whatsapp_window_closed', WINDOW_CLOSED]
    }
    const row: ChannelDeliveriesTable = {
      message_id: m.id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      channel_id: link.channel_id,
      to_phone: link.contact_phone,
      status: refusal ? 'failed' : 'queued',
      provider_sid: null,
      error_code: refusal?.[0] ?? null,
      error_message: refusal?.[1] ?? null,
      attempts: 0,
      created_at: now,
      updated_at: now,
    }
    await repo.insertDelivery(tx, row)
    await this.services.inbox.messages.setDelivery(tx, tenant, m.id, this.deliveryOf(row), true)
    if (!refusal) await enqueue(tx, this.k.clock, this.sendJob, { workspace_id: tenant.workspaceId, mode: tenant.mode, message_id: m.id })
  }

  /** The provider of a channel (null: a Twilio channel without a token any more). */
  private providerOf(channel: ChannelsTable): MessagingProvider | null {
    if (channel.provider === 'simulated') return SIMULATED
    if (channel.provider === 'widget') return WIDGET
    const token = this.channels.authToken(channel)
    return token && channel.account_sid && channel.base_url
      ? new TwilioMessagingAdapter(this.k, { account_sid: channel.account_sid, auth_token: token, base_url: channel.base_url }, channel.type)
      : null
  }

  /**
   * Sends once. Twilio takes no idempotency key for Messages, so the job marks the delivery before asking;
   * a run that finds the mark (the worker died mid-request) does not ask again: the status callback, whose
   * URL carries our message id, binds the sid, and a check fails the message if none comes. A definite
   * refusal (4xx) fails it with Twilio's code; 429 and 408 are retried on the schedule.
   */
  private async send(p: SendPayload, ctx: JobContext): Promise<void> {
    const { attempt } = ctx
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
    const d = await repo.findDelivery(this.k.db, tenant, p.message_id)
    if (!d || d.status !== 'queued') return
    if (p.check) {
      if (d.provider_sid === sending(d.message_id))
        await this.settle(tenant, d, 'failed', null, 'outcome_unknown', 'The provider never confirmed the message (its outcome is unknown); it was not sent again.')
      return
    }
    if (d.provider_sid) return
    const channel = await repo.findChannel(this.k.db, tenant, d.channel_id)
    if (!channel) return this.settle(tenant, d, 'failed', null, 'channel_deleted', 'The channel of this conversation was deleted; nothing was sent.')
    const contact = await repo.findContact(this.k.db, tenant, d.channel_id, d.to_phone)
    if (contact?.opted_out === 1) return this.settle(tenant, d, 'failed', null, 'opted_out', `${d.to_phone} opted out of messages from this channel (STOP); nothing was sent.`)
    const message = await this.services.inbox.messages.find(tenant, d.message_id)
    if (!message) return this.settle(tenant, d, 'failed', null, 'message_deleted', 'The message is gone (erased); nothing was sent.')
    if (channel.type === 'email') return this.sendEmail(tenant, d, channel, message, attempt)
    const provider = this.providerOf(channel)
    if (!provider) return this.settle(tenant, d, 'failed', null, 'provider_not_configured', 'The channel has no provider credentials any more.')
    // The window may have closed since the reply was written (retries): the template then, or nothing.
    const template = channel.type === 'whatsapp' && !windowOpen(contact, this.k.clock.now()) ? templateOf(channel) : undefined
    if (template === null) return this.settle(tenant, d, 'failed', null, 'whatsapp_window_closed', WINDOW_CLOSED)
    const marked = { ...d, provider_sid: sending(d.message_id), attempts: d.attempts + 1, updated_at: iso(this.k.clock.now()) }
    if (!(await repo.updateDeliveryIf(this.k.db, tenant, d.message_id, d, { provider_sid: marked.provider_sid, attempts: marked.attempts, updated_at: marked.updated_at }))) return
    try {
      const hooks = channelWebhooks(this.k, channel.id)
      const sent = await provider.send({
        from: channel.phone_number ?? '',
        to: d.to_phone,
        body: message.content,
        // Twilio fetches each from where it is: public URLs, or our own signed links under PUBLIC_URL.
        mediaUrls: message.attachments
          .map((a) => a.url)
          .filter((u) => /^https?:\/\//.test(u))
          .slice(0, MAX_MEDIA),
        statusCallback: `${hooks.status_url}?message=${d.message_id}`,
        messagingServiceSid: channel.messaging_service_sid ?? null,
        template: template ? { contentSid: template.content_sid, variables: templateVariables(template, { message: message.content, channel: channel.name }) } : null,
      })
      await this.settle(tenant, marked, sent.status, sent.sid, null, null)
    } catch (err) {
      if (!(err instanceof CarrierError)) throw err
      // Refused before the message existed (4xx): the mark goes. A 5xx or a timeout may have sent it.
      const definite = err.status !== null && err.status < 500
      if (definite) await repo.updateDeliveryIf(this.k.db, tenant, d.message_id, marked, { provider_sid: null })
      if (definite && err.retryable && attempt <= SEND_RETRIES.length) throw err
      if (definite) return this.settle(tenant, { ...marked, provider_sid: null }, 'failed', null, err.carrierCode === null ? 'provider_error' : String(err.carrierCode), err.message.slice(0, 500))
      this.k.log.warn({ message: d.message_id, err: err.message }, 'channel send outcome unknown; waiting for the status callback')
      await this.k.transaction(sideOwner(tenant), (tx) => enqueue(tx, this.k.clock, this.sendJob, { ...p, check: true }, { runAt: new Date(this.k.clock.now().getTime() + UNKNOWN_OUTCOME_WAIT_MS) }))
    }
  }

  /**
   * An email reply, once, as an SMS is: marked before the relay is asked. A refusal before the message was
   * taken (4xx, no connection) clears the mark and retries on the schedule; a 5xx fails it with the
   * relay's code; a connection lost while the message was handed over fails it as `outcome_unknown` at
   * once (SMTP sends no status callback that could tell later) and it is never sent again.
   */
  private async sendEmail(
    tenant: Tenant,
    d: ChannelDeliveriesTable,
    channel: ChannelsTable,
    message: NonNullable<Awaited<ReturnType<Services['inbox']['messages']['find']>>>,
    attempt: number,
  ): Promise<void> {
    const marked = { ...d, provider_sid: sending(d.message_id), attempts: d.attempts + 1, updated_at: iso(this.k.clock.now()) }
    if (!(await repo.updateDeliveryIf(this.k.db, tenant, d.message_id, d, { provider_sid: marked.provider_sid, attempts: marked.attempts, updated_at: marked.updated_at }))) return
    const r = await this.services.channels.email.send(tenant, channel, marked, message)
    if (r.kind === 'sent') return this.settle(tenant, marked, r.status ?? 'sent', r.sid, null, null)
    if (r.kind === 'unknown')
      return this.settle(
        tenant,
        marked,
        'failed',
        null,
        'outcome_unknown',
        `The connection to the relay broke while the message was handed over; it may have been sent and was not sent again. ${r.message}`.slice(0, 500),
      )
    await repo.updateDeliveryIf(this.k.db, tenant, d.message_id, marked, { provider_sid: null })
    if (r.kind === 'retry' && attempt <= SEND_RETRIES.length) throw new Error(`${r.code}: ${r.message}`)
    return this.settle(tenant, { ...marked, provider_sid: null }, 'failed', null, r.code, r.message.slice(0, 500))
  }

  private async exhausted(p: SendPayload, info: ExhaustedInfo): Promise<void> {
    const { error } = info
    const tenant: Tenant = inheritAudit(info, { workspaceId: p.workspace_id, mode: p.mode })
    const d = await repo.findDelivery(this.k.db, tenant, p.message_id)
    if (d && d.status === 'queued' && !d.provider_sid) await this.settle(tenant, d, 'failed', null, 'provider_error', error.slice(0, 500))
  }

  /**
   * A provider's status callback: the message found by its sid, else by our id in the callback URL (a
   * send whose answer was lost: the sid is bound now). Only forward moves count.
   */
  async applyStatus(channel: ChannelsTable, messageId: string | null, sid: string, status: DeliveryStatus, error: { code: string | null; message: string | null }): Promise<void> {
    const tenant: Tenant = { workspaceId: channel.workspace_id, mode: channel.mode }
    let d = sid ? await repo.findDeliveryBySid(this.k.db, tenant, channel.id, sid) : undefined
    if (!d && messageId) {
      const byId = await repo.findDelivery(this.k.db, tenant, messageId)
      if (byId && byId.channel_id === channel.id && (byId.provider_sid === null || byId.provider_sid === sending(byId.message_id) || byId.error_code === 'outcome_unknown')) d = byId
    }
    if (!d) return
    const unknownBefore = d.error_code === 'outcome_unknown'
    if (!unknownBefore && RANK[status] <= RANK[d.status] && d.provider_sid === sid) return
    if (!unknownBefore && RANK[status] < RANK[d.status]) return
    const failed = status === 'failed' || status === 'undelivered'
    await this.settle(tenant, d, status, sid, failed ? (error.code ?? 'provider_error') : null, failed ? (error.message ?? `The provider reported the message ${status}.`) : null)
  }

  /** Moves a delivery (guarded: from the state read) and shows it on the inbox message, with message.updated. */
  private async settle(tenant: Tenant, d: ChannelDeliveriesTable, status: DeliveryStatus, sid: string | null, code: string | null, message: string | null): Promise<void> {
    const patch = { status, provider_sid: sid ?? d.provider_sid, error_code: code, error_message: message, updated_at: iso(this.k.clock.now()) }
    await this.k.transaction(sideOwner(tenant), async (tx) => {
      if (!(await repo.updateDeliveryIf(tx, tenant, d.message_id, d, patch))) return
      await this.services.inbox.messages.setDelivery(tx, tenant, d.message_id, this.deliveryOf({ ...d, ...patch }))
    })
  }

  private deliveryOf(d: ChannelDeliveriesTable) {
    return { status: d.status, error_code: d.error_code, error_message: d.error_message, updated_at: d.updated_at }
  }
}
