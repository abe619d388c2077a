import { defineModule } from '../../kernel/module.js'
import { CHANNELS_ERRORS } from './channels.errors.js'
import { CHANNELS_EVENTS } from './channels.events.js'
import { channelsMigrations } from './channels.migrations.js'
import { channelsPrivacy } from './channels.privacy.js'
import { CHANNELS_RETENTION } from './channels.retention.js'
import { ChannelsService } from './channels.service.js'
import { twilioMessagingCallbacks } from './providers/twilio-callbacks.js'
import { emailCallbacks } from './email/email-webhooks.js'
import { createChannel } from './routes/create-channel.route.js'
import { deleteChannel } from './routes/delete-channel.route.js'
import { getChannel } from './routes/get-channel.route.js'
import { listChannels } from './routes/list-channels.route.js'
import { simulateChannelMessage } from './routes/simulate-channel-message.route.js'
import { updateChannel } from './routes/update-channel.route.js'
import { webChatCallbacks } from './web-chat/web-chat.callbacks.js'

export const channelsModule = defineModule({
  name: 'channels',
  uses: ['inbox', 'bots'],
  errors: CHANNELS_ERRORS,
  migrations: channelsMigrations,
  routes: [listChannels, createChannel, getChannel, updateChannel, deleteChannel, simulateChannelMessage],
  init(kernel, services) {
    kernel.events.declare(CHANNELS_EVENTS)
    const channels = new ChannelsService(kernel, services)
    kernel.jobs.register(channels.outbound.sendJob)
    kernel.jobs.register(channels.bot.replyJob)
    kernel.events.subscribeInTransaction('channels.outbound', channels.outbound.subscriber)
    kernel.jobs.register(channels.webChatFollowup.job)
    kernel.jobs.register(channels.mediaSweep.job)
    kernel.events.subscribeInTransaction('channels.web-chat-followup', channels.webChatFollowup.subscriber)
    kernel.jobs.register(channels.conversationForget.job)
    kernel.events.subscribeInTransaction('channels.conversation-forget', channels.conversationForget.subscriber)
    services.channels = channels
  },
  health: (_kernel, services) => services.channels.health(),
  // Keeps the sweep of inbound media whose message never committed queued while any waits.
  maintenance: (_kernel, services) => services.channels.mediaSweep.schedule(),
  reseal: async (_kernel, services) => (await services.channels.channels.reseal()) + (await services.channels.email.reseal()),
  callbacks: async (app, kernel, services) => {
    await app.register(twilioMessagingCallbacks(kernel, services))
    await app.register(webChatCallbacks(kernel, services))
    await app.register(emailCallbacks(kernel, services))
    // The inbound SMTP listener (SMTP_LISTEN_PORT) lives and dies with the HTTP server that serves the callbacks.
    app.addHook('onReady', () => services.channels.email.smtp.start())
    app.addHook('onClose', () => services.channels.email.smtp.stop())
  },
  privacy: channelsPrivacy,
  retention: CHANNELS_RETENTION,
})
