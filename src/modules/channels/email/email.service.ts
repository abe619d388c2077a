import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { ChannelBotService } from '../channel-bot.service.js'
import type { ChannelDeliveriesTable, ChannelsTable } from '../channels.tables.js'
import { EmailInboundService } from './email-inbound.service.js'
import { linkStartedConversation } from './email-start.js'
import { composeReply, sendSmtp, simulatedOutbox, type SendOutcome } from './email-outbound.js'
import * as emails from './email.repository.js'
import { relayOf, resealed } from './email.settings.js'
import { SmtpListener } from './smtp-listener.js'

/** `services.channels.email`: email channels' mail in (SMTP listener, providers' webhooks) and replies out. */
export class EmailChannelsService {
  readonly inbound: EmailInboundService
  readonly smtp: SmtpListener

  constructor(
    private readonly k: Kernel,
    services: Services,
    bot: ChannelBotService,
  ) {
    this.inbound = new EmailInboundService(k, services, bot)
    this.smtp = new SmtpListener(k, this.inbound)
    // Made once, in the module's init: conversations started by an agent get their thread in their own transaction.
    k.events.subscribeInTransaction('channels.email-start', linkStartedConversation)
  }

  /**
   * One reply of a delivery, through the channel's provider. `simulated` records it (simulatedOutbox) and
   * reports it delivered; `smtp` hands it to the relay: accepted is `sent` (SMTP tells no more).
   */
  async send(tenant: Tenant, channel: ChannelsTable, d: ChannelDeliveriesTable, message: Parameters<typeof composeReply>[6]): Promise<SendOutcome & { status?: 'sent' | 'delivered' }> {
    const settings = await emails.findEmail(this.k.db, tenant, channel.id)
    if (!settings) return { kind: 'failed', code: 'provider_not_configured', message: 'The channel has no email settings.' }
    const mail = await composeReply(this.k, tenant, this.inbound, settings, channel, d, message)
    if (!mail) return { kind: 'failed', code: 'no_email_thread', message: 'This conversation did not start by email: there is no address to answer.' }
    // Recorded before it leaves: the customer's answer (In-Reply-To our Message-ID) finds the conversation.
    await emails.insertThreadHeader(this.k.db, tenant, channel.id, mail.messageId, message.conversation_id)
    let outcome: SendOutcome
    if (channel.provider === 'simulated') {
      simulatedOutbox.push({ ...mail, attachments: mail.attachments.map((a) => ({ filename: a.filename, contentType: a.contentType, size: a.content.length })) })
      if (simulatedOutbox.length > 1000) simulatedOutbox.shift()
      outcome = { kind: 'sent', sid: mail.messageId }
    } else {
      const relay = relayOf(this.k, settings)
      if (!relay) return { kind: 'failed', code: 'provider_not_configured', message: 'No relay: set email.relay on the channel or EMAIL_RELAY_URL.' }
      outcome = await sendSmtp(this.k, relay, mail)
    }
    if (outcome.kind === 'sent') {
      const refs = [...mail.references, mail.messageId].slice(-20)
      await emails.updateEmailConversation(this.k.db, tenant, message.conversation_id, { last_header_id: mail.messageId, references_ids: refs.join(' ') })
      return { ...outcome, status: channel.provider === 'simulated' ? 'delivered' : 'sent' }
    }
    return outcome
  }

  async reseal(): Promise<number> {
    let after: string | null = null
    let count = 0
    for (;;) {
      const page = await emails.sealedEmails(this.k.db, after, 500)
      if (page.length === 0) return count
      for (const row of page) {
        const next = resealed(this.k, row)
        if (next && (await emails.resealEmail(this.k.db, row, next))) count++
      }
      after = page[page.length - 1].channel_id
    }
  }
}
