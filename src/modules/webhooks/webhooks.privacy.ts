import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './webhooks.repository.js'
import { deliveryView, envelopeBody } from './webhooks.views.js'
import { namesSubject } from '../../kernel/pii/pii.mentions.js'

// The webhooks module's part in data-subject requests (docs/compliance.md "What each module does"): the
// outbox keeps a copy of every payload sent (a conversation with its contact, a message with its text), and
// deliveries and their attempts are kept beside it. An event about the subject goes with them.

const stringsOf = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(stringsOf) : v && typeof v === 'object' ? Object.entries(v).flatMap(([key, x]) => [key, ...stringsOf(x)]) : []

/** Events whose payload names the subject: a string holding the email or phone, or a string that is the external id. */
async function eventsOf(db: Executor, tenant: Tenant, s: DataSubject) {
  const candidates = await repo.eventsContaining(db, tenant, [s.email, s.phone].filter((n): n is string => !!n), s.external_id ? [JSON.stringify(s.external_id)] : [])
  return candidates.filter((e) => stringsOf(JSON.parse(e.data)).some((t) => namesSubject(t, s) || t === s.external_id))
}

export const webhooksPrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const events = await eventsOf(k.db, tenant, subject)
    const deliveries = await repo.deliveriesOfEvents(k.db, tenant, events.map((e) => e.id))
    return {
      records: {
        // As receivers got them: the delivered envelope.
        events: events.map((e) => JSON.parse(envelopeBody({ ...e, event_id: e.id }))),
        webhook_deliveries: deliveries.map(deliveryView),
      },
      files: [],
      ids: [...events.map((e) => e.id), ...deliveries.map((d) => d.id)],
    }
  },

  /** Deletes those events with their deliveries and attempts (a pending delivery is not sent any more). */
  async erase(k, _services, tenant, subject) {
    const ids = (await eventsOf(k.db, tenant, subject)).map((e) => e.id)
    if (ids.length === 0) return { deleted: 0, anonymised: 0 }
    return { deleted: await k.transaction(null, (tx) => repo.deleteEvents(tx, tenant, ids)), anonymised: 0 }
  },
}
