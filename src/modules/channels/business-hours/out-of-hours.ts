import { iso } from '../../../kernel/clock.js'
import type { Tx } from '../../../kernel/db/database.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from '../channels.repository.js'
import type { ChannelsTable } from '../channels.tables.js'
import { closedSince, isOpen, outOfHoursText, type BusinessHours } from './business-hours.js'

/**
 * The out-of-hours reply: when a customer writes while the channel is closed and no bot answers them (none
 * on the channel, or it handed the conversation to people), the channel says when people are back — once
 * per closed period and conversation, in the transaction of the message that prompted it (a retried
 * webhook writes neither twice). It is an outbound message like any reply, so the channel sends it.
 */
export class OutOfHours {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  async reply(tx: Tx, tenant: Tenant, channel: ChannelsTable, conversationId: string): Promise<string | null> {
    if (!channel.business_hours) return null
    const hours = JSON.parse(channel.business_hours) as BusinessHours
    const now = this.k.clock.now()
    if (!hours.out_of_hours_reply || isOpen(hours, now)) return null
    const link = await repo.findConversationLink(tx, tenant, conversationId)
    if (!link) return null
    if (link.out_of_hours_reply_at && link.out_of_hours_reply_at >= iso(closedSince(hours, now))) return null
    const text = outOfHoursText(hours, now)
    if (!text) return null
    // Authored by the channel itself (`bot`, the channel's id): no member or bot wrote it.
    const { messageId } = await this.services.inbox.turns.post(tx, tenant, conversationId, text, { type: 'bot', id: channel.id })
    await repo.setOutOfHoursReply(tx, tenant, conversationId, iso(now))
    return messageId
  }
}
