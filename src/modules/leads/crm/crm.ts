import type { Kernel } from '../../../kernel/kernel.js'
import { DEFAULT_TIMEOUT_MS, failure } from './crm.http.js'
import type { CrmAdapter, CrmAdapterOptions, CrmConnection } from './crm.types.js'
import { HubSpotAdapter } from './hubspot.adapter.js'
import { WebhookCrmAdapter } from './webhook.adapter.js'

/** The adapter of a workspace's CRM connection. Cheap to build: make one per sync. */
export function crmAdapterFor(k: Kernel, conn: CrmConnection, opts: CrmAdapterOptions = {}): CrmAdapter {
  const timeoutMs = opts.timeoutMs ?? DEFAULT_TIMEOUT_MS
  switch (conn.provider) {
    case 'hubspot':
      return new HubSpotAdapter(k, conn, timeoutMs)
    case 'webhook':
      return new WebhookCrmAdapter(k, conn, timeoutMs)
    default: {
      // Settings written by a newer build, or corrupted: a permanent failure the lead can show, not a crash.
      const provider = String((conn as { provider?: unknown }).provider)
      return { upsert: async () => failure('not_configured', `Unknown CRM provider "${provider}".`, false) }
    }
  }
}
