import type { ModulePrivacy } from '../../kernel/module.js'
import * as repo from './channels.repository.js'
import { eraseWebChat, webChatRecords } from './web-chat/web-chat.privacy.js'

// The channels module's part in data-subject requests (docs/compliance.md "What each module does"). It
// keeps a customer's phone number with their consent (opt-out) and the links from their conversations;
// the messages themselves are the inbox's to export and erase.

export const channelsPrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const rows = subject.phone ? await repo.contactsByPhone(k.db, tenant, subject.phone) : []
    return {
      records: {
        channel_contacts: rows.map((r) => ({ channel_id: r.channel_id, phone: r.contact_phone, conversation_id: r.conversation_id, opted_out: r.opted_out === 1, opted_out_at: r.opted_out_at, updated_at: r.updated_at })),
        channel_web_visitors: await webChatRecords(k, tenant, subject),
      },
      files: [],
      // The channel is the business's, not the subject's: no audit entries to export through it.
      ids: [],
    }
  },

  /** Deletes the subject's rows (consent, conversation links, delivery records): a second run finds nothing. */
  async erase(k, _services, tenant, subject) {
    const visitors = await eraseWebChat(k, tenant, subject)
    if (!subject.phone) return { deleted: visitors, anonymised: 0 }
    return { deleted: (await repo.eraseByPhone(k.db, tenant, subject.phone)) + visitors, anonymised: 0 }
  },
}
