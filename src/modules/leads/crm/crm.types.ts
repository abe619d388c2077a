import type { Kernel } from '../../../kernel/kernel.js'

// The CRM adapter contract the leads sync job calls. An adapter never throws for a CRM failure: it
// answers a CrmResult whose `retryable` tells the job whether to try again (and `retry_after_ms` when).

/** What a sync sends: our lead, flattened. */
export interface CrmLead {
  /** lead_… (our id) */
  id: string
  email: string | null
  name: string | null
  /** E.164 */
  phone: string | null
  company: string | null
  title: string | null
  status: string
  score: number
  properties: Record<string, string | number | boolean | null>
  /** The CRM record id from an earlier sync, if any. */
  external_id: string | null
}

/** A tenant's CRM, its secrets opened (crm-settings.ts): what the leads sync connects with. */
export interface CrmConnection {
  provider: 'hubspot' | 'webhook'
  base_url: string | null
  access_token: string | null
  url: string | null
  signing_secret: string | null
}

export type CrmResult =
  { ok: true; external_id: string; action: 'created' | 'updated' } | { ok: false; retryable: boolean; retry_after_ms: number | null; status: number | null; code: string; message: string }

export type CrmFailure = Extract<CrmResult, { ok: false }>

export interface CrmContext {
  /** Sent as `Idempotency-Key` (and as the webhook's `webhook-id`); the same on every retry of one sync. */
  idempotencyKey: string
  /** Aborts the requests in flight (worker shutdown); the result is then a retryable `cancelled`. */
  signal?: AbortSignal
}

export interface CrmAdapter {
  upsert(lead: CrmLead, ctx: CrmContext): Promise<CrmResult>
}

export interface CrmAdapterOptions {
  /** Per request (connect, send, answer); default 10,000 ms. */
  timeoutMs?: number
}

// The factory lives in crm.ts; re-exported so the contract is importable from this one file.
export type CrmAdapterFactory = (k: Kernel, conn: CrmConnection, opts?: CrmAdapterOptions) => CrmAdapter
export { crmAdapterFor } from './crm.js'
