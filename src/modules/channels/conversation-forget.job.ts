import { inheritAudit } from '../../kernel/audit/audit.js'
import type { Executor } from '../../kernel/db/database.js'
import { type EventEnvelope, eventTenant } from '../../kernel/events/events.js'
import { defineJob, enqueue, type JobContext, type JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Mode, Tenant } from '../../kernel/tenant.js'
import * as repo from './conversation-forget.repository.js'
import { deleteAttachmentFolder } from './email/email-inbound.service.js'
import * as emails from './email/email.repository.js'
import { deleteMediaFolder, folderOfReceipt } from './providers/twilio-media.js'
import * as webRepo from './web-chat/web-chat.repository.js'
import { WEB_CHAT_KEY, webChatFileOfSid } from './web-chat/web-chat.service.js'

interface ForgetPayload {
  workspace_id: string
  mode: Mode
  conversation_id: string
}

/**
 * What the channels kept for a conversation outlives it no longer. When the inbox deletes one (the `messages`
 * retention policy, a data-subject erasure) it emits `conversation.deleted` in that transaction; there, one
 * indexed read per channel table says whether a channel kept anything for it, and if so this job is queued
 * with it. The job deletes the blobs (MMS / WhatsApp media, web chat files, e-mail attachments) first, then the
 * rows that lead to them: a run that dies half-way leaves rows a retry finds again, never a blob nobody can find.
 */
export class ConversationForget {
  readonly job: JobDefinition<ForgetPayload>
  private readonly fileKey: Buffer

  constructor(private readonly k: Kernel) {
    this.fileKey = k.deriveKey(WEB_CHAT_KEY)
    this.job = defineJob<ForgetPayload>({ name: 'channels.conversation-forget', retrySchedule: [10, 60, 600, 3600], run: async (p, ctx) => void (await this.run(p, ctx)) })
  }

  readonly subscriber = async (tx: Executor, event: EventEnvelope): Promise<void> => {
    if (event.type !== 'conversation.deleted') return
    const id = (event.data.object as { id: string }).id
    const tenant = eventTenant(event)
    if (!(await repo.keepsAnythingFor(tx, tenant, id))) return
    await enqueue(tx, this.k.clock, this.job, { workspace_id: tenant.workspaceId, mode: tenant.mode, conversation_id: id })
  }

  /** The number of rows forgotten (blobs are deleted, not counted). */
  async run(p: ForgetPayload, ctx: JobContext): Promise<number> {
    const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
    const db = this.k.db
    const receipts = await repo.receiptsOfConversation(db, tenant, p.conversation_id)
    for (const r of receipts) {
      const folder = folderOfReceipt(r)
      if (folder) await deleteMediaFolder(this.k, r.channel_id, folder)
    }
    const fileIds = receipts.map((r) => webChatFileOfSid(this.fileKey, r.provider_sid)).filter((id): id is string => id !== null)
    const files = fileIds.length ? await webRepo.attachmentsOf(db, tenant, { ids: fileIds }) : []
    for (const f of files) await this.k.blobs.delete(f.blob_key)
    for (const h of await emails.threadHeadersOf(db, tenant, [p.conversation_id])) await deleteAttachmentFolder(this.k, h.channel_id, h.header_id)
    return this.k.transaction(tenant, (tx) =>
      repo.forgetConversation(
        tx,
        tenant,
        p.conversation_id,
        files.map((f) => f.id),
        receipts,
      ),
    )
  }
}
