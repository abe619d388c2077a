import type { Kernel } from '../../../kernel/kernel.js'
import type { SubjectRecords } from '../../../kernel/module.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { attachmentFolder, attachmentKey, MAX_ATTACHMENTS } from './email-inbound.service.js'
import * as emails from './email.repository.js'

// The attachments of a customer's e-mails, in data-subject requests (channels.privacy.ts): found through the
// threads of their conversations (each inbound Message-ID names a blob folder), carried into an access export
// under files/email/ and deleted by an erasure.

/** One stored attachment, as the export lists it; `file` is its path in the archive, `url` the signed link its message carries. */
export interface EmailAttachmentRecord {
  message_id: string | null
  conversation_id: string
  channel_id: string
  filename: string
  content_type: string
  size_bytes: number
  file: string
  url: string | null
}

/** A name that is safe as one path segment of the archive, whatever the sender called the file. */
const safeName = (name: string) =>
  name
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/\.{2,}/g, '.')
    .replace(/^\./, '_')
    .slice(0, 100) || 'attachment'

/** The messages' attachments of a conversation by their blob path (`<folder>/<slot>`): the message and the name it shows. */
async function attachmentsOfConversation(services: Services, tenant: Tenant, conversationId: string): Promise<Map<string, { messageId: string; url: string; filename: string | null }>> {
  const out = new Map<string, { messageId: string; url: string; filename: string | null }>()
  let cursor: string | undefined
  for (;;) {
    const page = await services.inbox.messages.list(tenant, conversationId, { limit: 100, order: 'asc', cursor }).catch(() => null)
    if (!page) return out
    for (const m of page.data) {
      for (const a of m.attachments) {
        const slot = /\/email\/attachments\/([0-9a-f]+\/\d+)(?:\?|$)/.exec(a.url)
        if (slot) out.set(slot[1], { messageId: m.id, url: a.url, filename: a.filename ?? null })
      }
    }
    if (!page.has_more || !page.next_cursor) return out
    cursor = page.next_cursor
  }
}

/** Their stored e-mail attachments: a record each, and the blob to carry into the export under files/. */
export async function emailAttachmentsOf(k: Kernel, services: Services, tenant: Tenant, email: string): Promise<{ records: EmailAttachmentRecord[]; files: SubjectRecords['files'] }> {
  const records: EmailAttachmentRecord[] = []
  const files: SubjectRecords['files'] = []
  const threads = await emails.conversationsByEmail(k.db, tenant, email)
  const headers = await emails.threadHeadersOf(
    k.db,
    tenant,
    threads.map((t) => t.conversation_id),
  )
  const shown = new Map<string, Awaited<ReturnType<typeof attachmentsOfConversation>>>()
  for (const h of headers) {
    const folder = attachmentFolder(h.channel_id, h.header_id)
    for (let i = 0; i < MAX_ATTACHMENTS; i++) {
      const key = attachmentKey(h.channel_id, folder, i)
      const stat = await k.blobs.stat(key)
      if (!stat) continue
      if (!shown.has(h.conversation_id)) shown.set(h.conversation_id, await attachmentsOfConversation(services, tenant, h.conversation_id))
      const on = shown.get(h.conversation_id)!.get(`${folder}/${i}`)
      const filename = safeName(on?.filename ?? `attachment-${i + 1}`)
      const name = `email/${h.conversation_id}/${folder}/${i + 1}-${filename}`
      records.push({
        message_id: on?.messageId ?? null,
        conversation_id: h.conversation_id,
        channel_id: h.channel_id,
        filename,
        content_type: stat.contentType,
        size_bytes: stat.size,
        file: `files/${name}`,
        url: on?.url ?? null,
      })
      files.push({ name, key, contentType: stat.contentType })
    }
  }
  return { records, files }
}
