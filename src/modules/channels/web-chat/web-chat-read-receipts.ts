import { iso } from '../../../kernel/clock.js'
import { AppError } from '../../../kernel/errors.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { ChannelOutboundService } from '../channel-outbound.service.js'
import * as fr from './web-chat-followup.repository.js'
import type { VisitorSession, WebChatService } from './web-chat.service.js'

/**
 * Read receipts both ways (docs/channels.md "Read receipts"):
 * - the visitor's: the widget reports the newest reply it showed in a visible tab with the chat open; every
 *   reply to them up to it moves to delivery `read` (forward only, as a carrier's receipt moves an SMS), which
 *   the inbox shows on the message with `message.updated`, and a reply read in time is not sent by e-mail;
 * - the team's: the inbox's per-member read marks (markConversationRead, which the dashboard moves while a
 *   conversation is open in a visible tab); the visitor sees "Seen" up to the furthest mark of any member.
 */
export class WebChatReadReceipts {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
    private readonly outbound: ChannelOutboundService,
    private readonly web: WebChatService,
  ) {}

  /** The visitor has seen the replies up to `messageId` (one of their conversation's); returns how many changed. */
  async visitorRead(s: VisitorSession, messageId: string): Promise<number> {
    const message = await this.services.inbox.messages.find(s.tenant, messageId)
    // Another visitor's message, or none, is the same 404: ids of other chats are not confirmed.
    if (!message || message.private || !(await this.web.owns(s, message.conversation_id))) throw new AppError('resource_not_found', 'No message with this id in your conversations.')
    const unread = await fr.unreadReplies(this.k.db, s.tenant, s.channel.id, s.visitor.id, messageId)
    for (const d of unread) {
      await this.outbound.applyStatus(s.channel, d.message_id, d.provider_sid ?? `wc_shown_${d.message_id}`, 'read', { code: null, message: null })
    }
    // Read in the widget first: their mail is not sent (the follow-up job checks again before sending).
    await fr.cancelRead(
      this.k.db,
      s.tenant,
      unread.map((d) => d.message_id),
      iso(this.k.clock.now()),
    )
    return unread.length
  }

  /** How far the team has read the visitor's conversation (null: nobody yet). */
  async teamRead(s: VisitorSession, conversationId: string): Promise<{ message_id: string; read_at: string } | null> {
    return this.services.inbox.working.readByTeam(s.tenant, conversationId)
  }
}
