import type { RetentionClass } from '../../kernel/module.js'
import * as repo from './channels-retention.repository.js'
import { forgetVisitors } from './web-chat/web-chat.privacy.js'

/** The channels module's classes of data a retention policy governs (docs/compliance.md "Retention"). */
export const CHANNELS_RETENTION: RetentionClass[] = [
  {
    name: 'web_chat_visitors',
    description:
      'Web chat visitors whose last visit is older than the policy, forgotten with their e-mail address, name and verified user id, their files, their e-mail follow-ups and their conversation links (their token opens nothing after; the conversations are the inbox’s, under `messages`; the delivery records of replies to them go with `channel_deliveries`).',
    minimumDays: 1,
    count: (k, tenant, before) => repo.countIdleVisitors(k.db, tenant, before),
    async purge(k, tenant, before, limit) {
      const ids = await repo.idleVisitorIds(k.db, tenant, before, limit)
      await forgetVisitors(k, tenant, ids, { deliveries: false })
      return ids.length
    },
  },
  {
    name: 'channel_deliveries',
    description:
      'Delivery records of replies sent through channels (the recipient’s number, address or visitor, the provider’s id, the outcome) last changed before the cutoff; a reply still queued stays. The message keeps its delivery state in the inbox.',
    minimumDays: 1,
    count: (k, tenant, before) => repo.countOldDeliveries(k.db, tenant, before),
    purge: (k, tenant, before, limit) => repo.deleteOldDeliveries(k.db, tenant, before, limit),
  },
]
