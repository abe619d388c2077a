import type { Executor } from '../../kernel/db/database.js'
import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './inbox.repository.js'
import { conversationView, draftView, messageView } from './inbox.views.js'

// The inbox's part in data-subject requests (docs/compliance.md "What each module does"): the subject's
// conversations go whole; the subject named in someone else's conversation is cut out of those messages.

export const ERASED = '[erased]'

const escapeRegExp = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Where the subject's email (any case) or phone (as stored, E.164) stands in a text as a whole: not inside
 * a longer address (`nada@…`, `…@example.com.au`) or a longer number. Literal only: `+1 415 555 0123`
 * written with spaces is not found.
 */
export function mentionSpans(text: string, s: DataSubject): { start: number; end: number }[] {
  const out: { start: number; end: number }[] = []
  const find = (needle: string, whole: (before: string, after: string) => boolean) => {
    for (const m of text.matchAll(new RegExp(escapeRegExp(needle), 'gi'))) {
      const start = m.index!
      const end = start + m[0].length
      if (whole(text.slice(Math.max(0, start - 1), start), text.slice(end, end + 2))) out.push({ start, end })
    }
  }
  if (s.email) find(s.email, (b, a) => !/[A-Za-z0-9._%+-]/.test(b) && !/^([A-Za-z0-9_-]|\.[A-Za-z0-9])/.test(a))
  if (s.phone) find(s.phone, (b, a) => !/[0-9+]/.test(b) && !/^[0-9]/.test(a))
  return out.sort((x, y) => x.start - y.start)
}

/** The text with every mention replaced by `[erased]` (overlapping ones by one). */
export function eraseMentions(text: string, s: DataSubject): string {
  let out = ''
  let at = 0
  for (const { start, end } of mentionSpans(text, s)) {
    if (start < at) {
      at = Math.max(at, end)
      continue
    }
    out += text.slice(at, start) + ERASED
    at = end
  }
  return out + text.slice(at)
}

const needlesOf = (s: DataSubject) => [s.email, s.phone].filter((n): n is string => !!n)

/** Messages of other people's conversations that name the subject (the subject's own are found with their conversation). */
async function mentionsOf(db: Executor, tenant: Tenant, s: DataSubject, own: Set<string>) {
  const candidates = await repo.messagesContaining(db, tenant, needlesOf(s))
  return candidates.filter((m) => !own.has(m.conversation_id) && mentionSpans(m.content, s).length > 0)
}

export const inboxPrivacy: ModulePrivacy = {
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
    const removed = await k.transaction(null, (tx) => repo.deleteConversations(tx, tenant, ids))
    const mentions = await mentionsOf(k.db, tenant, subject, new Set())
    if (mentions.length > 0) {
      await k.transaction(null, async (tx) => {
        for (const m of mentions) await services.inbox.messages.rewrite(tx, tenant, m.id, eraseMentions(m.content, subject))
      })
    }
    return { deleted: removed.conversations + removed.messages + removed.drafts, anonymised: mentions.length }
  },
}
