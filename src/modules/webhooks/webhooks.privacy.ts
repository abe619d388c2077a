import type { DataSubject, ModulePrivacy } from '../../kernel/module.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './webhooks.repository.js'
import { playgroundToken } from './webhooks.destination.js'
import { captureView, deliveryView, envelopeBody } from './webhooks.views.js'
import type { WebhookPlaygroundCapturesTable } from './webhooks.tables.js'
import { mentionNeedles, namesSubject } from '../../kernel/pii/pii.mentions.js'

// The webhooks module's part in data-subject requests (docs/compliance.md "What each module does"): the
// outbox keeps a copy of every payload sent (a conversation with its contact, a message with its text), and
// deliveries and their attempts are kept beside it; the Playground keeps what it received. An event is the
// subject's when its payload names them (email, phone, full name, external id) or refers to one of the
// records the other modules find for them (a message of their conversation carries only its id). Erasure
// deletes such events with their deliveries and attempts, and the Playground captures of the workspace's
// endpoints that name the subject or recorded one of those deliveries.

const stringsOf = (v: unknown): string[] =>
  typeof v === 'string' ? [v] : Array.isArray(v) ? v.flatMap(stringsOf) : v && typeof v === 'object' ? Object.entries(v).flatMap(([key, x]) => [key, ...stringsOf(x)]) : []

/** The ids of the subject's records in every other module (found before those modules erase them: erasure runs in reverse module order). */
async function recordIdsOf(k: Kernel, services: Services, tenant: Tenant, s: DataSubject): Promise<Set<string>> {
  const ids = new Set<string>()
  for (const m of k.modules) {
    // DSAR events carry the subject masked: they stay as the record of the requests.
    if (!m.privacy || m.privacy === webhooksPrivacy || m.name === 'compliance') continue
    for (const id of (await m.privacy.collect(k, services, tenant, s)).ids) ids.add(id)
  }
  return ids
}

async function eventsOf(k: Kernel, services: Services, tenant: Tenant, s: DataSubject) {
  const ids = await recordIdsOf(k, services, tenant, s)
  const exact = [...(s.external_id ? [s.external_id] : []), ...ids].map((v) => JSON.stringify(v))
  const candidates = await repo.eventsContaining(k.db, tenant, mentionNeedles(s), exact)
  return candidates.filter((e) => stringsOf(JSON.parse(e.data)).some((t) => namesSubject(t, s) || t === s.external_id || ids.has(t)))
}

const captureText = (c: WebhookPlaygroundCapturesTable) => [c.path, c.query, c.headers, c.body_encoding === 'base64' ? Buffer.from(c.body, 'base64').toString('utf8') : c.body].join('\n')

/** Captures in the Playground inboxes the tenant's endpoints deliver to, or of the given deliveries, that name the subject or recorded one of those deliveries. */
async function capturesOf(k: Kernel, tenant: Tenant, s: DataSubject, deliveryIds: string[]) {
  const tokens = (await repo.endpointUrls(k.db, tenant)).map(playgroundToken).filter((t): t is string => !!t)
  const theirs = new Set(deliveryIds)
  const candidates = await repo.capturesOf(k.db, tenant.mode, [...new Set(tokens)], deliveryIds)
  return candidates.filter((c) => (c.delivery_id && theirs.has(c.delivery_id)) || namesSubject(captureText(c), s) || (!!s.external_id && captureText(c).includes(JSON.stringify(s.external_id))))
}

async function find(k: Kernel, services: Services, tenant: Tenant, s: DataSubject) {
  const events = await eventsOf(k, services, tenant, s)
  const deliveries = await repo.deliveriesOfEvents(
    k.db,
    tenant,
    events.map((e) => e.id),
  )
  const captures = await capturesOf(
    k,
    tenant,
    s,
    deliveries.map((d) => d.id),
  )
  return { events, deliveries, captures }
}

export const webhooksPrivacy: ModulePrivacy = {
  async collect(k, services, tenant, subject) {
    const { events, deliveries, captures } = await find(k, services, tenant, subject)
    return {
      records: {
        // As receivers got them: the delivered envelope.
        events: events.map((e) => JSON.parse(envelopeBody({ ...e, event_id: e.id }))),
        webhook_deliveries: deliveries.map(deliveryView),
        playground_captures: captures.map(captureView),
      },
      files: [],
      ids: [...events.map((e) => e.id), ...deliveries.map((d) => d.id), ...captures.map((c) => c.id)],
    }
  },

  /** Deletes those events with their deliveries and attempts (a pending delivery is not sent any more), and those captures. */
  async erase(k, services, tenant, subject) {
    const { events, captures } = await find(k, services, tenant, subject)
    if (events.length + captures.length === 0) return { deleted: 0, anonymised: 0 }
    const deleted = await k.transaction(
      null,
      async (tx) =>
        (await repo.deleteEvents(
          tx,
          tenant,
          events.map((e) => e.id),
        )) +
        (await repo.deleteCaptures(
          tx,
          captures.map((c) => c.id),
        )),
    )
    return { deleted, anonymised: 0 }
  },
}
