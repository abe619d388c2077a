import { defineModule } from '../../kernel/module.js'
import { INBOX_EVENTS } from './inbox.events.js'
import { inboxMigrations } from './inbox.migrations.js'
import { InboxService, inboxHealth, inboxUsage } from './inbox.service.js'
import { assignConversation } from './routes/assign-conversation.route.js'
import { createAiDraft } from './routes/create-ai-draft.route.js'
import { createConversation } from './routes/create-conversation.route.js'
import { createInboxTag } from './routes/create-inbox-tag.route.js'
import { createReplyTemplate } from './routes/create-reply-template.route.js'
import { getConversation } from './routes/get-conversation.route.js'
import { listConversations } from './routes/list-conversations.route.js'
import { listInboxTags } from './routes/list-inbox-tags.route.js'
import { listMessages } from './routes/list-messages.route.js'
import { listPublicConversations } from './routes/list-public-conversations.route.js'
import { listReplyTemplates } from './routes/list-reply-templates.route.js'
import { resolveConversation } from './routes/resolve-conversation.route.js'
import { sendMessage } from './routes/send-message.route.js'
import { updateConversation } from './routes/update-conversation.route.js'
import { markConversationRead } from './routes/mark-conversation-read.route.js'
import { getInboxCounts } from './routes/get-inbox-counts.route.js'
import { searchInbox } from './routes/search-inbox.route.js'
import { snoozeConversation } from './routes/snooze-conversation.route.js'
import { INBOX_ERRORS } from './inbox.errors.js'
import { inboxPrivacy } from './inbox.privacy.js'
import { INBOX_RETENTION } from './inbox.retention.js'

export const inboxModule = defineModule({
  name: 'inbox',
  scopes: [
    { resource: 'conversations', memberWrites: true },
    { resource: 'messages', memberWrites: true },
  ],
  uses: ['workspaces', 'knowledge'],
  errors: INBOX_ERRORS,
  migrations: inboxMigrations,
  routes: [
    listConversations,
    createConversation,
    getConversation,
    updateConversation,
    listMessages,
    sendMessage,
    createAiDraft,
    assignConversation,
    resolveConversation,
    listReplyTemplates,
    createReplyTemplate,
    listInboxTags,
    createInboxTag,
    listPublicConversations,
    markConversationRead,
    getInboxCounts,
    searchInbox,
    snoozeConversation,
  ],
  init(kernel, services) {
    services.inbox = new InboxService(kernel, services)
    kernel.events.declare(INBOX_EVENTS)
    kernel.jobs.register(services.inbox.jobs.wake)
  },
  health: inboxHealth,
  usage: inboxUsage,
  privacy: inboxPrivacy,
  retention: INBOX_RETENTION,
})
