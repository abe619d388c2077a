import type { ModulePrivacy } from '../../kernel/module.js'
import * as repo from './bots.repository.js'
import { replyView } from './bots.views.js'

// The bots module's part in data-subject requests (docs/compliance.md "What each module does"): the replies
// its bots gave in the subject's conversations (found through the inbox). The messages themselves are the
// inbox's; a reply row is the record of why the bot said it (citations, tools, guardrails).

export const botsPrivacy: ModulePrivacy = {
  async collect(k, services, tenant, subject) {
    const replies = await repo.repliesInConversations(k.db, tenant, await services.inbox.subjectConversationIds(tenant, subject))
    return { records: { bot_replies: replies.map(replyView) }, files: [], ids: replies.map((r) => r.id) }
  },

  /** Deletes those reply rows. Needs the conversations still there: run before the inbox's erasure. */
  async erase(k, services, tenant, subject) {
    const conversations = await services.inbox.subjectConversationIds(tenant, subject)
    return { deleted: await repo.deleteRepliesInConversations(k.db, tenant, conversations), anonymised: 0 }
  },
}
