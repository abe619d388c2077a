import { iso } from '../../kernel/clock.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModulePrivacy } from '../../kernel/module.js'
import { eraseMentions } from '../../kernel/pii/pii.mentions.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './compliance.repository.js'
import { maskSubject } from './compliance.shared.js'
import type { DsarRequestsTable } from './compliance.tables.js'
import { dsarView } from './compliance.views.js'

// The compliance module's part in data-subject requests (docs/compliance.md "What each module does"): the
// subject's earlier requests name them, and an earlier export is a ZIP of everything the service held about
// them. Erasure deletes those archives (their links then answer 410 Gone) and keeps each request only as
// the record of what was done: its subject masked, its corrected values dropped, its notes redacted.

/** What an export becomes once erased: no file, the link's hash kept so the link answers 410, not 404. */
export const exportErased = (reason: string, now: Date): Partial<DsarRequestsTable> => ({
  export_status: 'none',
  export_key: null,
  export_sha256: null,
  export_size: null,
  export_token_sealed: null,
  export_expires_at: null,
  export_error: reason,
  updated_at: iso(now),
})

/** Deletes a request's export file (if any) and marks the export erased. */
export async function eraseExport(k: Kernel, tenant: Tenant, r: DsarRequestsTable, reason: string): Promise<boolean> {
  if (!r.export_key && r.export_status !== 'ready' && r.export_status !== 'pending') return false
  if (r.export_key) await k.blobs.delete(r.export_key)
  await repo.updateDsar(k.db, tenant, r.id, exportErased(reason, k.clock.now()))
  return true
}

export const compliancePrivacy: ModulePrivacy = {
  async collect(k, _services, tenant, subject) {
    const requests = await repo.dsarsOfSubject(k.db, tenant, subject)
    return { records: { dsar_requests: requests.map((r) => dsarView(r, k.clock.now(), null)) }, files: [], ids: requests.map((r) => r.id) }
  },

  async erase(k, _services, tenant, subject) {
    const requests = await repo.dsarsOfSubject(k.db, tenant, subject)
    let deleted = 0
    for (const r of requests) {
      // The file first: a crash between the two leaves the request findable, and the retry finishes it.
      if (await eraseExport(k, tenant, r, 'deleted by an erasure request about the same person')) deleted++
      const masked = maskSubject({ email: r.subject_email, phone: r.subject_phone, external_id: r.subject_external_id })
      await repo.updateDsar(k.db, tenant, r.id, {
        subject_email: masked.email,
        subject_phone: masked.phone,
        subject_external_id: masked.external_id,
        changes: '{}',
        notes: r.notes === null ? null : eraseMentions(r.notes, subject),
        updated_at: iso(k.clock.now()),
      })
    }
    return { deleted, anonymised: requests.length }
  },
}
