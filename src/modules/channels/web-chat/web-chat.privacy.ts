import type { Kernel } from '../../../kernel/kernel.js'
import type { DataSubject } from '../../../kernel/module.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as retention from '../channels-retention.repository.js'
import * as fr from './web-chat-followup.repository.js'
import * as repo from './web-chat.repository.js'

// The web chat's part in the channels module's data-subject hooks (channels.privacy.ts) and retention
// (channels.retention.ts): a visitor row holds the e-mail given in the pre-chat form and the host site's
// user id; their files, their replies' e-mail follow-ups and delivery records hang off it; their messages
// are the inbox's.

export async function webChatRecords(k: Kernel, tenant: Tenant, subject: DataSubject): Promise<Record<string, unknown>[]> {
  const visitors = await repo.visitorsOf(k.db, tenant, { email: subject.email, userId: subject.external_id })
  const ids = visitors.map((v) => v.id)
  const files = await repo.attachmentsOf(k.db, tenant, { visitorIds: ids })
  const followups = await fr.followupsOfVisitors(k.db, tenant, ids)
  return visitors.map((v) => ({
    id: v.id,
    channel_id: v.channel_id,
    email: v.email,
    name: v.name,
    user_id: v.user_id,
    created_at: v.created_at,
    last_seen_at: v.last_seen_at,
    files: files.filter((f) => f.visitor_id === v.id).map((f) => ({ id: f.id, filename: f.filename, content_type: f.content_type, size_bytes: f.size_bytes, created_at: f.created_at })),
    email_followups: followups
      .filter((f) => f.visitor_id === v.id)
      .map((f) => ({ message_id: f.message_id, conversation_id: f.conversation_id, status: f.status, due_at: f.due_at, outcome: f.outcome })),
  }))
}

/** The subject's visitor ids (the recipients of their replies' delivery records). */
export async function visitorIdsOf(k: Kernel, tenant: Tenant, subject: DataSubject): Promise<string[]> {
  return (await repo.visitorsOf(k.db, tenant, { email: subject.email, userId: subject.external_id })).map((v) => v.id)
}

/** Forgets the subject's visitors (a token of theirs opens nothing after). */
export async function eraseWebChat(k: Kernel, tenant: Tenant, subject: DataSubject): Promise<number> {
  return forgetVisitors(k, tenant, await visitorIdsOf(k, tenant, subject), { deliveries: true })
}

/**
 * Forgets visitors by id: their files (blobs first: a crash after leaves rows that a second run finds again,
 * never blobs nobody can find), e-mail follow-ups, then their rows and conversation links; with `deliveries`
 * (a data-subject erasure) the delivery records of replies to them too. Retention leaves those to their own
 * class (channel_deliveries), so that what each class's dry run counts is what it deletes.
 */
export async function forgetVisitors(k: Kernel, tenant: Tenant, ids: string[], opts: { deliveries: boolean }): Promise<number> {
  if (ids.length === 0) return 0
  for (const f of await repo.attachmentsOf(k.db, tenant, { visitorIds: ids })) await k.blobs.delete(f.blob_key)
  let n = await fr.deleteFollowupsOfVisitors(k.db, tenant, ids)
  if (opts.deliveries) n += await retention.deleteDeliveriesTo(k.db, tenant, ids)
  return n + (await repo.eraseVisitors(k.db, tenant, ids))
}
