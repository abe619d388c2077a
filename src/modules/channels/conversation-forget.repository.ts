import type { Executor } from '../../kernel/db/database.js'
import { scoped } from '../../kernel/db/scoped.js'
import type { Tenant } from '../../kernel/tenant.js'
import { deleteConversationLink, findConversationLink } from './channels.repository.js'
import type { ChannelReceiptsTable } from './channels.tables.js'
import './channels.tables.js'
import './email/email.tables.js'
import './web-chat/web-chat.tables.js'
import './web-chat/web-chat-followup.tables.js'

// The SQL of forgetting what the channels kept for a conversation the inbox deleted (conversation-forget.job.ts).

/** Whether any channel keeps something for the conversation: a link, an e-mail thread, a receipt. Three indexed reads. */
export async function keepsAnythingFor(db: Executor, tenant: Tenant, conversationId: string): Promise<boolean> {
  const link = await scoped(db, tenant).selectFrom('channel_conversations').select('conversation_id').where('conversation_id', '=', conversationId).executeTakeFirst()
  if (link) return true
  const thread = await scoped(db, tenant).selectFrom('channel_email_conversations').select('conversation_id').where('conversation_id', '=', conversationId).executeTakeFirst()
  if (thread) return true
  const receipt = await scoped(db, tenant).selectFrom('channel_receipts').select('provider_sid').where('conversation_id', '=', conversationId).limit(1).executeTakeFirst()
  return !!receipt
}

export type ConversationReceipt = Pick<ChannelReceiptsTable, 'channel_id' | 'provider_sid' | 'media_folder' | 'contact_phone'>

/** The receipts of the conversation's messages (what each stored: a media folder, a web chat file). */
export function receiptsOfConversation(db: Executor, tenant: Tenant, conversationId: string): Promise<ConversationReceipt[]> {
  return scoped(db, tenant).selectFrom('channel_receipts').select(['channel_id', 'provider_sid', 'media_folder', 'contact_phone']).where('conversation_id', '=', conversationId).execute()
}

/**
 * Once the blobs are gone: the receipts stay (a provider's late retry must still find its message, and not
 * write it again) without their media folder and the customer's number; the web chat files' rows, the e-mail
 * threading, the channel's link, the customer's pointer at the conversation and pending e-mail follow-ups go.
 */
export async function forgetConversation(db: Executor, tenant: Tenant, conversationId: string, webFileIds: string[], receipts: ConversationReceipt[]): Promise<number> {
  // The customers who wrote in it (by channel and number or visitor): their row points at it while it was their open one.
  const link = await findConversationLink(db, tenant, conversationId)
  const contacts = new Map<string, { channel: string; phone: string }>()
  for (const c of [...(link ? [{ channel_id: link.channel_id, contact_phone: link.contact_phone }] : []), ...receipts]) {
    if (c.contact_phone) contacts.set(`${c.channel_id}\n${c.contact_phone}`, { channel: c.channel_id, phone: c.contact_phone })
  }
  for (const c of contacts.values()) {
    await scoped(db, tenant)
      .updateTable('channel_contacts')
      .set({ conversation_id: null })
      .where('channel_id', '=', c.channel)
      .where('contact_phone', '=', c.phone)
      .where('conversation_id', '=', conversationId)
      .execute()
  }
  let n = 0
  const r = await scoped(db, tenant).updateTable('channel_receipts').set({ media_folder: '', contact_phone: null }).where('conversation_id', '=', conversationId).executeTakeFirst()
  n += Number(r.numUpdatedRows)
  if (webFileIds.length) n += Number((await scoped(db, tenant).deleteFrom('channel_web_attachments').where('id', 'in', webFileIds).executeTakeFirst()).numDeletedRows)
  n += Number((await scoped(db, tenant).deleteFrom('channel_email_threads').where('conversation_id', '=', conversationId).executeTakeFirst()).numDeletedRows)
  n += Number((await scoped(db, tenant).deleteFrom('channel_email_conversations').where('conversation_id', '=', conversationId).executeTakeFirst()).numDeletedRows)
  n += Number((await scoped(db, tenant).deleteFrom('channel_web_followups').where('conversation_id', '=', conversationId).executeTakeFirst()).numDeletedRows)
  n += await deleteConversationLink(db, tenant, conversationId)
  return n
}
