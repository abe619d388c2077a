import { countApiLogsBefore, purgeApiLogsBefore } from '../../kernel/http/api-log.store.js'
import type { RetentionClass } from '../../kernel/module.js'
import * as repo from './compliance.repository.js'
import { eraseExport } from './compliance.privacy.js'
import { AUDIT_MINIMUM_DAYS } from './retention.service.js'

/** The compliance module's own classes of data. */
export const COMPLIANCE_RETENTION: RetentionClass[] = [
  {
    name: 'audit_log',
    description: `Audit log entries (sealed ones, oldest first). At least ${AUDIT_MINIMUM_DAYS} days: it is the evidence.`,
    minimumDays: AUDIT_MINIMUM_DAYS,
    count: (k, tenant, before) => repo.countAuditBefore(k.db, tenant, before),
    purge: (k, tenant, before, limit) => repo.purgeAudit(k.db, tenant, before, limit),
  },
  {
    name: 'dsar_exports',
    description: 'DSAR export archives (the request and its progress are kept; the file is deleted).',
    minimumDays: 1,
    count: (k, tenant, before) => repo.countExportsBefore(k.db, tenant, before),
    async purge(k, tenant, before, limit) {
      const rows = await repo.exportsBefore(k.db, tenant, before, limit)
      for (const r of rows) {
        await eraseExport(k, tenant, r, 'deleted by the retention policy')
      }
      return rows.length
    },
  },
  {
    name: 'api_logs',
    description: 'API request logs (GET /api-logs) and the daily request counts usage reports read (GET /usage, workspace usage).',
    minimumDays: 1,
    // Rows first (request time before the cutoff), then the day rollups of days before the cutoff's day.
    count: async (k, tenant, before) => (await countApiLogsBefore(k.db, tenant, before)) + (await repo.countRequestDays(k.db, tenant, before)),
    async purge(k, tenant, before, limit) {
      const logs = await purgeApiLogsBefore(k.db, tenant, before, limit)
      return logs < limit ? logs + (await repo.purgeRequestDays(k.db, tenant, before, limit - logs)) : logs
    },
  },
]
