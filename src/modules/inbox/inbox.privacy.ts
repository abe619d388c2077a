import { sideOwner } from '../../kernel/audit/audit.js'
import { iso } from '../../kernel/clock.js'
import type { Executor } from '../../kernel/db/database.js'
import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import { eraseMentions, mentionNeedles, mentionSpans } from '../../kernel/pii/pii.mentions.js'
import { deleteConversations } from './conversation-deletion.js'
import * as repo from './inbox.repository.js'
import type { InboxConversationsTable } from './inbox.tables.js'
import { conversationView, draftView, messageView } from './inbox.views.js'

// The inbox's part in data-subject requests (docs/compliance.md "What each module does"): the subject's
// conversations go whole; the subject named in someone else's conversation is cut out of those messages.

/** Messages of other people's conversations that name the subject (the subject's own are found with their conversation). */
async function mentionsOf(db: Executor, tenant: Tenant, s: DataSubject, own: Set<string>) {
  const candidates = await repo.messagesContaining(db, tenant, mentionNeedles(s))
  return candidates.filter((m) => !own.has(m.conversation_id) && mentionSpans(m.content, s).length > 0)
}

export const inboxPrivacy: ModulePrivacy = {
  /** The contact names of the subject's conversations. */
  async names(k, _services, tenant, subject) {
    return (await repo.conversationsOfSubject(k.db, tenant, subject)).map((c) => c.contact_name).filter((n): n is string => !!n)
  },

  async collect(k, _services, tenant, subject) {
    const conversations = await repo.conversationsOfSubject(k.db, tenant, subject)
    const ids = conversations.map((c) => c.id)
    const [messages, drafts, mentions] = await Promise.all([
      repo.messagesOfConversations(k.db, tenant, ids),
      repo.draftsOfConversations(k.db, tenant, ids),
      mentionsOf(k.db, tenant, subject, new Set(ids)),
    ])
    return {
      records: {
        conversations: conversations.map(conversationView),
        messages: messages.map(messageView),
        ai_drafts: drafts.map(draftView),
        mentions: mentions.map(messageView),
      },
      files: [],
      ids: [...ids, ...messages.map((m) => m.id), ...drafts.map((d) => d.id), ...mentions.map((m) => m.id)],
    }
  },

  /**
   * Deletes the subject's conversations with their messages, tag links and AI drafts (no row outside the
   * inbox points at them by a foreign key; voice calls, bot replies and agent runs keep the bare id and
   * are erased by their own modules). Mentions are rewritten in place with `message.updated`.
   */
  async erase(k, services, tenant, subject) {
    const ids = await repo.conversationIdsOfSubject(k.db, tenant, subject)
    const removed = await k.transaction(sideOwner(tenant), (tx) => deleteConversations(k, tx, tenant, ids))
    const mentions = await mentionsOf(k.db, tenant, subject, new Set())
    if (mentions.length > 0) {
      await k.transaction(sideOwner(tenant), async (tx) => {
        for (const m of mentions) await services.inbox.messages.rewrite(tx, tenant, m.id, eraseMentions(m.content, subject))
      })
    }
    return { deleted: removed.conversations + removed.messages + removed.drafts, anonymised: mentions.length }
  },

  /**
   * Corrects the contact of the subject's conversations: `name` on each; `email` / `phone` where the
   * conversation carries the subject's old value (or none; a phone also when the request does not know the
   * old one). Messages are what people wrote and stay as written. `conversation.updated` for each change.
   */
  async rectify(k, _services, tenant, subject, changes) {
    const conversations = await repo.conversationsOfSubject(k.db, tenant, subject)
    let changed = 0
    for (const c of conversations) {
      const patch: Partial<InboxConversationsTable> = {}
      if (changes.name && changes.name !== c.contact_name) patch.contact_name = changes.name
      if (changes.email && changes.email !== c.contact_email && (!c.contact_email || c.contact_email.toLowerCase() === subject.email)) patch.contact_email = changes.email
      if (changes.phone && changes.phone !== c.contact_phone && (!c.contact_phone || !subject.phone || c.contact_phone === subject.phone)) patch.contact_phone = changes.phone
      if (Object.keys(patch).length === 0) continue
      patch.updated_at = iso(k.clock.now())
      await k.transaction(sideOwner(tenant), async (tx) => {
        await repo.updateConversation(tx, tenant, c.id, patch)
        await k.events.emit(tx, tenant, 'conversation.updated', conversationView({ ...c, ...patch }))
      })
      changed++
    }
    return changed
  },
}
