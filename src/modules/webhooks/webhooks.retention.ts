import { sideOwner } from '../../kernel/audit/audit.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { RetentionClass } from '../../kernel/module.js'
import type { Tenant } from '../../kernel/tenant.js'
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
      return (await k.transaction(sideOwner(tenant), (tx) => repo.deleteDeliveries(tx, tenant, ids))).deliveries
    },
  },
  {
    name: 'events',
    description:
      'Outbox events (GET /events) of every type created before the cutoff, with their deliveries and attempts. A class whose content an event copies (messages, transcripts) deletes those events at its own cutoff as well.',
    minimumDays: 1,
    count: (k, tenant, before) => repo.countEventsBefore(k.db, tenant, null, before),
    purge: (k, tenant, before, limit) => purgeEventsBefore(k, tenant, null, before, limit),
  },
]

/** Up to `limit` outbox events (of `types`, or all) created before `before`, with their deliveries and attempts; returns how many events. */
export async function purgeEventsBefore(k: Kernel, tenant: Tenant, types: string[] | null, before: string, limit: number): Promise<number> {
  const ids = await repo.eventIdsBefore(k.db, tenant, types, before, limit)
  if (ids.length > 0) await k.transaction(sideOwner(tenant), (tx) => repo.deleteEvents(tx, tenant, ids))
  return ids.length
}
