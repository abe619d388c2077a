import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { iso } from '../../../kernel/clock.js'
import { fromJson, toJson } from '../../../kernel/db/database.js'
import { reclaimFreedSpace } from '../../../kernel/db/reclaim.js'
import { defineJob } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { DataSubject } from '../../../kernel/module.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from '../compliance.repository.js'
import { eraseExport } from '../compliance.privacy.js'
import type { DsarRequestT } from '../compliance.schemas.js'
import type { DsarRequestsTable } from '../compliance.tables.js'
import { maskSubject } from '../compliance.shared.js'
import type { DsarJobPayload, DsarService } from '../dsar.service.js'

type Progress = Record<string, DsarRequestT['progress'][number]>

export const subjectOfRow = (r: DsarRequestsTable): DataSubject => ({ email: r.subject_email, phone: r.subject_phone, external_id: r.subject_external_id })

/** The subject with the names their own records give them (each module's `names`), before anything is erased. */
export async function withNames(k: Kernel, services: Services, tenant: Tenant, subject: DataSubject): Promise<DataSubject> {
  const names = new Set<string>()
  for (const m of k.modules) for (const n of (await m.privacy?.names?.(k, services, tenant, subject)) ?? []) names.add(n)
  return { ...subject, names: [...names] }
}

/**
 * Works a request through every module that holds personal data (MODULES order; reversed to erase), recording per module
 * what was found and done: access locates the records; erasure erases them (each module's documented
 * way; idempotent, so a retried job finds nothing left and carries on); rectification locates them and
 * applies the corrected values where a module can. Progress is saved after each module, so a crash
 * resumes where it stopped. The erasure itself is audited as the system's change.
 */
export const processDsarJob = (k: Kernel, services: Services, dsar: () => DsarService) =>
  defineJob<DsarJobPayload>({
    name: 'compliance.dsar-process',
    retrySchedule: [5, 30, 120, 600],
    async run(p, ctx) {
      const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
      let row = await repo.findDsar(k.db, tenant, p.dsar_id)
      if (!row || row.status === 'completed' || row.status === 'rejected') return
      if (row.status === 'received') {
        const patch = { status: 'in_progress' as const, updated_at: iso(k.clock.now()) }
        if (await repo.updateDsar(k.db, tenant, row.id, patch, { status: 'received' })) row = { ...row, ...patch }
      }
      const subject = await withNames(k, services, tenant, subjectOfRow(row))
      const progress = fromJson<Progress>(row.progress, {})
      // Erasure runs modules in reverse: a module that finds the subject through an earlier one (bots and agents
      // through the inbox's conversations) erases before that one deletes what it finds them by.
      for (const m of row.type === 'erasure' ? [...k.modules].reverse() : k.modules) {
        if (!m.privacy || progress[m.name]?.status === 'done') continue
        const found = await m.privacy.collect(k, services, tenant, subject)
        const records = Object.fromEntries(Object.entries(found.records).map(([kind, list]) => [kind, list.length]))
        const entry: Progress[string] = { module: m.name, status: 'done', records, deleted: null, anonymised: null, error: null }
        if (row.type === 'erasure') Object.assign(entry, await m.privacy.erase(k, services, tenant, subject))
        if (row.type === 'rectification' && m.privacy.rectify)
          Object.assign(entry, { anonymised: null, deleted: null }, { records: { ...records, rectified: await m.privacy.rectify(k, services, tenant, subject, fromJson(row.changes, {})) } })
        progress[m.name] = entry
        await repo.updateDsar(k.db, tenant, row.id, { progress: toJson(progress), updated_at: iso(k.clock.now()) })
      }
      if (row.type === 'erasure') {
        // A second pass: what the erasure itself wrote (a `message.updated` carrying a redacted mention is
        // fine, a payload naming the person is not) is found by the same identifiers and erased too.
        for (const m of [...k.modules].reverse()) {
          if (!m.privacy) continue
          const again = await m.privacy.erase(k, services, tenant, subject)
          const entry = progress[m.name]
          if (entry && (again.deleted || again.anonymised)) Object.assign(entry, { deleted: (entry.deleted ?? 0) + again.deleted, anonymised: (entry.anonymised ?? 0) + again.anonymised })
        }
        // This request's own export, if one was made: the person's data in a file.
        await eraseExport(k, tenant, row, 'deleted by this erasure request')
      }
      await k.transaction(sideOwner(tenant), async (tx) => {
        const now = iso(k.clock.now())
        // An erased subject is kept only masked: the request stays as the record of what was done.
        const masked = row!.type === 'erasure' ? maskSubject(subject) : null
        const patch = {
          status: 'completed' as const,
          progress: toJson(progress),
          completed_at: now,
          updated_at: now,
          ...(masked ? { subject_email: masked.email, subject_phone: masked.phone, subject_external_id: masked.external_id } : {}),
        }
        if (!(await repo.updateDsar(tx, tenant, row!.id, patch, { status: 'in_progress' }))) return
        await k.events.emit(tx, tenant, 'dsar.completed', dsar().eventView({ ...row!, ...patch }))
      })
      // Deleted rows leave their bytes in free pages and the WAL until overwritten: reclaim them now.
      if (row.type === 'erasure') await reclaimFreedSpace(k.database)
    },
  })
