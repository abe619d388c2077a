import type { RetentionClass } from '../../kernel/module.js'
import * as repo from './webhooks.repository.js'

/** The webhooks module's classes of data a retention policy governs (docs/compliance.md "Retention"). */
export const WEBHOOKS_RETENTION: RetentionClass[] = [
  {
    name: 'webhook_deliveries',
    description: 'Webhook deliveries created before the cutoff, with their attempts (request outcomes and response bodies), whatever their status. The events themselves stay.',
    minimumDays: 1,
    count: (k, tenant, before) => repo.countDeliveriesBefore(k.db, tenant, before),
    async purge(k, tenant, before, limit) {
      const ids = await repo.deliveryIdsBefore(k.db, tenant, before, limit)
      if (ids.length === 0) return 0
      return (await k.transaction(null, (tx) => repo.deleteDeliveries(tx, tenant, ids))).deliveries
    },
  },
]
