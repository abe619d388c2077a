import { notFound } from '../../kernel/errors.js'
import type { Executor } from '../../kernel/db/database.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './voice.repository.js'
import type { VoiceCallsTable, VoiceNumbersTable } from './voice.tables.js'

/** The API's base URL for a tenant's mode: links in resources and events point there. */
export const apiBase = (k: Kernel, tenant: Tenant) => `${k.config.publicUrl}${tenant.mode === 'live' ? '/v2' : '/sandbox/v2'}`

export async function callOr404(db: Executor, tenant: Tenant, id: string): Promise<VoiceCallsTable> {
  const row = await repo.findCall(db, tenant, id)
  if (!row) throw notFound('voice call', id)
  return row
}

export async function numberOr404(db: Executor, tenant: Tenant, id: string): Promise<VoiceNumbersTable> {
  const row = await repo.findNumber(db, tenant, id)
  if (!row) throw notFound('voice number', id)
  return row
}

export const FINAL_STATUSES = new Set(['completed', 'busy', 'no_answer', 'failed', 'canceled'])
export const tenantOf = (r: { workspace_id: string; mode: Tenant['mode'] }): Tenant => ({ workspaceId: r.workspace_id, mode: r.mode })
