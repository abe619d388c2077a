import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import { ChannelBotService } from './channel-bot.service.js'
import { ChannelInboundService } from './channel-inbound.service.js'
import { ChannelOutboundService } from './channel-outbound.service.js'
import { ChannelsResourceService } from './channels-resource.service.js'
import * as repo from './channels.repository.js'
import { ConversationForget } from './conversation-forget.job.js'
import { EmailChannelsService } from './email/email.service.js'
import { TwilioMediaSweep } from './providers/twilio-media-sweep.job.js'
import { WebChatEmailFollowup } from './web-chat/web-chat-email-followup.js'
import { WebChatReadReceipts } from './web-chat/web-chat-read-receipts.js'
import { WebChatService } from './web-chat/web-chat.service.js'

/** `services.channels`: the channel resource, customers' messages in, and replies out. */
export class ChannelsService {
  readonly channels: ChannelsResourceService
  readonly inbound: ChannelInboundService
  readonly outbound: ChannelOutboundService
  readonly bot: ChannelBotService
  readonly email: EmailChannelsService
  readonly webChat: WebChatService
  readonly webChatReads: WebChatReadReceipts
  readonly webChatFollowup: WebChatEmailFollowup
  readonly mediaSweep: TwilioMediaSweep
  readonly conversationForget: ConversationForget

  constructor(
    private readonly k: Kernel,
    services: Services,
  ) {
    this.channels = new ChannelsResourceService(k, services)
    this.bot = new ChannelBotService(k, services)
    this.inbound = new ChannelInboundService(k, services, this.bot)
    this.email = new EmailChannelsService(k, services, this.bot)
    this.outbound = new ChannelOutboundService(k, services, this.channels)
    this.webChat = new WebChatService(k, services, this.inbound, this.outbound)
    this.webChatReads = new WebChatReadReceipts(k, services, this.outbound, this.webChat)
    this.webChatFollowup = new WebChatEmailFollowup(k, services)
    this.mediaSweep = new TwilioMediaSweep(k)
    this.conversationForget = new ConversationForget(k)
  }

  /** The tables answer. */
  async health(): Promise<ModuleHealth> {
    await repo.sealedChannels(this.k.db, null, 1)
    return { status: 'ok' }
  }
}

declare module '../../kernel/services.js' {
  interface Services {
    channels: ChannelsService
  }
}
