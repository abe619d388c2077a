import type { ModulePrivacy } from '../../kernel/module.js'
import * as repo from './channels.repository.js'
import * as retention from './channels-retention.repository.js'
import { eraseWebChat, visitorIdsOf, webChatRecords } from './web-chat/web-chat.privacy.js'
import { deleteAttachmentFolder } from './email/email-inbound.service.js'
import { emailAttachmentsOf } from './email/email-attachments.privacy.js'
import * as emails from './email/email.repository.js'
import { eraseTwilioMedia, twilioMediaOf } from './providers/twilio-media.privacy.js'

// The channels module's part in data-subject requests (docs/compliance.md "What each module does"). It
// keeps a customer's phone number with their consent (opt-out), the links from their conversations, the
// delivery records of replies to them, the web chat's visitors, the media they sent by MMS / WhatsApp and the
// attachments of their e-mails (listed, and carried into the export under files/media/ and files/email/); the
// messages themselves are the inbox's.

export const channelsPrivacy: ModulePrivacy = {
  async collect(k, services, tenant, subject) {
    const rows = subject.phone ? await repo.contactsByPhone(k.db, tenant, subject.phone) : []
    const threads = subject.email ? await emails.conversationsByEmail(k.db, tenant, subject.email) : []
    // Replies sent to them: by SMS / WhatsApp to their number, by e-mail to their address, in the widget to their visitors.
    const recipients = [subject.phone, subject.email?.toLowerCase(), ...(await visitorIdsOf(k, tenant, subject))].filter((r): r is string => !!r)
    const deliveries = await retention.deliveriesTo(k.db, tenant, recipients)
    const media = subject.phone ? await twilioMediaOf(k, services, tenant, subject.phone) : { records: [], files: [] }
    const attachments = subject.email ? await emailAttachmentsOf(k, services, tenant, subject.email) : { records: [], files: [] }
    return {
      records: {
        channel_contacts: rows.map((r) => ({
          channel_id: r.channel_id,
          phone: r.contact_phone,
          conversation_id: r.conversation_id,
          opted_out: r.opted_out === 1,
          opted_out_at: r.opted_out_at,
          updated_at: r.updated_at,
        })),
        channel_web_visitors: await webChatRecords(k, tenant, subject),
        channel_email_conversations: threads.map((t) => ({ channel_id: t.channel_id, email: t.contact_email, conversation_id: t.conversation_id, subject: t.subject })),
        channel_deliveries: deliveries.map((d) => ({
          message_id: d.message_id,
          channel_id: d.channel_id,
          to: d.to_phone,
          status: d.status,
          error_code: d.error_code,
          created_at: d.created_at,
          updated_at: d.updated_at,
        })),
        channel_media: media.records,
        channel_email_attachments: attachments.records,
      },
      files: [...media.files, ...attachments.files],
      // The channel is the business's, not the subject's: no audit entries to export through it.
      ids: [],
    }
  },

  /** Deletes the subject's rows (consent, conversation links, delivery records): a second run finds nothing. */
  async erase(k, _services, tenant, subject) {
    let deleted = subject.phone ? await repo.eraseByPhone(k.db, tenant, subject.phone) : 0
    // The media they sent by MMS / WhatsApp (the folders their receipts name, and those of messages never committed).
    if (subject.phone) deleted += await eraseTwilioMedia(k, tenant, subject.phone)
    deleted += await eraseWebChat(k, tenant, subject)
    if (subject.email) {
      // Their emails' attachments (blobs named by channel and Message-ID), then the rows that lead to them.
      const threads = await emails.conversationsByEmail(k.db, tenant, subject.email)
      for (const h of await emails.threadHeadersOf(
        k.db,
        tenant,
        threads.map((t) => t.conversation_id),
      ))
        await deleteAttachmentFolder(k, h.channel_id, h.header_id)
      deleted += await emails.eraseByEmail(k.db, tenant, subject.email)
    }
    return { deleted, anonymised: 0 }
  },
}
