import { defineModule } from '../../kernel/module.js'
import { resealBotSecrets } from './bot-secrets.js'
import { forgetRepliesOfDeletedConversation } from './bots-conversation-deleted.js'
import { handoffToHumanTool } from './bots.tools.js'
import { BOTS_ERRORS } from './bots.errors.js'
import { BOTS_EVENTS } from './bots.events.js'
import { botsMigrations } from './bots.migrations.js'
import { botsPrivacy } from './bots.privacy.js'
import { BOTS_RETENTION } from './bots.retention.js'
import { BotsService, botsUsage } from './bots.service.js'
import { attachBotTool } from './routes/attach-bot-tool.route.js'
import { cloneBot } from './routes/clone-bot.route.js'
import { createBotVersion } from './routes/create-bot-version.route.js'
import { createBot } from './routes/create-bot.route.js'
import { deleteBot } from './routes/delete-bot.route.js'
import { getBotGuardrails } from './routes/get-bot-guardrails.route.js'
import { getBot } from './routes/get-bot.route.js'
import { listBotTools } from './routes/list-bot-tools.route.js'
import { listBotVersions } from './routes/list-bot-versions.route.js'
import { listBots } from './routes/list-bots.route.js'
import { publishBot } from './routes/publish-bot.route.js'
import { rollbackBotVersion } from './routes/rollback-bot-version.route.js'
import { sendBotMessage } from './routes/send-bot-message.route.js'
import { streamBotMessage } from './routes/stream-bot-message.route.js'
import { getBotTestConversation } from './routes/get-bot-test-conversation.route.js'
import { updateBotGuardrails } from './routes/update-bot-guardrails.route.js'
import { updateBot } from './routes/update-bot.route.js'

export const botsModule = defineModule({
  name: 'bots',
  scopes: [{ resource: 'bots' }],
  uses: ['workspaces', 'knowledge', 'inbox'],
  errors: BOTS_ERRORS,
  migrations: botsMigrations,
  routes: [
    listBots,
    createBot,
    getBot,
    updateBot,
    deleteBot,
    publishBot,
    listBotVersions,
    createBotVersion,
    rollbackBotVersion,
    cloneBot,
    listBotTools,
    attachBotTool,
    getBotGuardrails,
    updateBotGuardrails,
    sendBotMessage,
    streamBotMessage,
    getBotTestConversation,
  ],
  init(kernel, services) {
    kernel.events.declare(BOTS_EVENTS)
    kernel.tools.registerBuiltin(handoffToHumanTool())
    kernel.events.subscribeInTransaction('bots.conversation-deleted', forgetRepliesOfDeletedConversation)
    services.bots = new BotsService(kernel, services)
  },
  health: (_kernel, services) => services.bots.health(),
  usage: botsUsage,
  reseal: (kernel) => resealBotSecrets(kernel),
  privacy: botsPrivacy,
  retention: BOTS_RETENTION,
})
