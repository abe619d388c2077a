import type { Kernel } from '../../../kernel/kernel.js'
import type { SubjectRecords } from '../../../kernel/module.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { forgetReceiptPhone, pendingMediaOf, twilioReceiptsOf } from './messaging.repository.js'
import { dropPendingMedia } from './twilio-media-sweep.job.js'
import { deleteMediaFolder, folderOfReceipt, MAX_MEDIA, MEDIA_TYPES, mediaKey, TwilioMediaStore } from './twilio-media.js'

// The MMS / WhatsApp media a customer sent, in data-subject requests (channels.privacy.ts): found through
// the receipts of their messages (each names its media folder), and, for erasure, the folders of messages
// of theirs not committed yet (channel_media_pending).

/** One stored file, as the export lists it; `file` is its path in the archive, `url` the signed link the message carries. */
export interface ChannelMediaRecord {
  message_id: string
  conversation_id: string | null
  channel_id: string
  message_sid: string
  filename: string
  content_type: string
  size_bytes: number
  received_at: string
  file: string
  url: string
}

/** Their stored media: a record each, and the blob to carry into the export under files/. */
export async function twilioMediaOf(k: Kernel, services: Services, tenant: Tenant, phone: string): Promise<{ records: ChannelMediaRecord[]; files: SubjectRecords['files'] }> {
  const store = new TwilioMediaStore(k)
  const records: ChannelMediaRecord[] = []
  const files: SubjectRecords['files'] = []
  for (const r of await twilioReceiptsOf(k.db, tenant, phone)) {
    const folder = folderOfReceipt(r)
    if (!folder || !r.message_id) continue
    let conversationId: string | null | undefined
    for (let i = 0; i < MAX_MEDIA; i++) {
      const key = mediaKey(r.channel_id, folder, i)
      const stat = await k.blobs.stat(key)
      if (!stat) continue
      conversationId ??= (await services.inbox.messages.find(tenant, r.message_id))?.conversation_id ?? null
      const filename = `media-${i + 1}.${MEDIA_TYPES[stat.contentType] ?? 'bin'}`
      const name = `media/${r.message_id}/${filename}`
      records.push({
        message_id: r.message_id,
        conversation_id: conversationId,
        channel_id: r.channel_id,
        message_sid: r.provider_sid,
        filename,
        content_type: stat.contentType,
        size_bytes: stat.size,
        received_at: r.received_at,
        file: `files/${name}`,
        url: store.url(r.channel_id, folder, i),
      })
      files.push({ name, key, contentType: stat.contentType })
    }
  }
  return { records, files }
}

/**
 * Erasure: the media of each of their messages (every slot of its folder), the folders of messages of
 * theirs not committed (such a message, should it still commit, links Twilio's URLs), then their number
 * on the receipts.
 */
export async function eraseTwilioMedia(k: Kernel, tenant: Tenant, phone: string): Promise<number> {
  for (const r of await twilioReceiptsOf(k.db, tenant, phone)) {
    const folder = folderOfReceipt(r)
    if (folder) await deleteMediaFolder(k, r.channel_id, folder)
  }
  let n = 0
  for (const row of await pendingMediaOf(k.db, tenant, phone)) if (await dropPendingMedia(k, row, null)) n++
  return n + (await forgetReceiptPhone(k.db, tenant, phone))
}
