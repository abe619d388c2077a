import type { Kernel } from '../../../kernel/kernel.js'
import type { DataSubject } from '../../../kernel/module.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from './web-chat.repository.js'

// The web chat's part in the channels module's data-subject hooks (channels.privacy.ts): a visitor row holds
// the e-mail given in the pre-chat form and the host site's user id; their messages are the inbox's.

export async function webChatRecords(k: Kernel, tenant: Tenant, subject: DataSubject): Promise<Record<string, unknown>[]> {
  const visitors = await repo.visitorsOf(k.db, tenant, { email: subject.email, userId: subject.external_id })
  const files = await repo.attachmentsOf(k.db, tenant, { visitorIds: visitors.map((v) => v.id) })
  return visitors.map((v) => ({
    id: v.id,
    channel_id: v.channel_id,
    email: v.email,
    name: v.name,
    user_id: v.user_id,
    created_at: v.created_at,
    last_seen_at: v.last_seen_at,
    files: files.filter((f) => f.visitor_id === v.id).map((f) => ({ id: f.id, filename: f.filename, content_type: f.content_type, size_bytes: f.size_bytes, created_at: f.created_at })),
  }))
}

/** Forgets the subject's visitors (their rows and conversation links; a token of theirs opens nothing after). */
export async function eraseWebChat(k: Kernel, tenant: Tenant, subject: DataSubject): Promise<number> {
  const visitors = await repo.visitorsOf(k.db, tenant, { email: subject.email, userId: subject.external_id })
  const ids = visitors.map((v) => v.id)
  // Their files first (a crash after leaves rows that a second run finds again, never blobs nobody can find).
  for (const f of await repo.attachmentsOf(k.db, tenant, { visitorIds: ids })) await k.blobs.delete(f.blob_key)
  return repo.eraseVisitors(k.db, tenant, ids)
}
