import { defineModule } from '../../kernel/module.js'
import { LiveService } from './live.service.js'
import { streamEvents } from './routes/stream-events.route.js'
import { updateConversationPresence } from './routes/update-conversation-presence.route.js'

declare module '../../kernel/services.js' {
  interface Services {
    live: LiveService
  }
}

/** The live event stream and presence: what a dashboard or an integration follows instead of polling. */
export const liveModule = defineModule({
  name: 'live',
  uses: ['workspaces', 'inbox'],
  migrations: [],
  routes: [streamEvents, updateConversationPresence],
  init(kernel, services) {
    services.live = new LiveService(kernel, services)
  },
})
