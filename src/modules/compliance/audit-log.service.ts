import type { ChainVerification } from '../../kernel/audit/audit-chain.js'
import { utc } from '../../kernel/clock.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './compliance.repository.js'
import type { AuditEntryT, ListAuditLogQueryT } from './compliance.schemas.js'
import { auditView } from './compliance.views.js'

/** The audit log as the API shows it: the tenant's entries, newest first, sealed before they are read. */
export class AuditLogService {
  constructor(private readonly k: Kernel) {}

  async list(tenant: Tenant, q: ListAuditLogQueryT): Promise<PageResult<AuditEntryT>> {
    // Entries written a moment ago get their chain link now rather than at the next sealing tick.
    await this.k.audit.seal(tenant.workspaceId)
    const { cursor: _c, limit: _l, ...filters } = q
    // occurred_at is UTC text compared as text: the bounds must be written the same way (an offset, or no milliseconds,
    // would otherwise compare wrong).
    const bounds = { ...q, from: utc(q.from), to: utc(q.to) }
    return this.k.paginate({ list: 'listAuditLog', tenant, filters, query: q, fetch: (page) => repo.listAudit(this.k.db, tenant, bounds, page), key: (r) => r.id, view: auditView })
  }

  /**
   * The workspace's whole chain recomputed under the chain key (both modes share it) and held to its
   * latest checkpoint (kept outside the database), then to the head the last audit-chain evidence
   * recorded: entries deleted from the end show as a chain shorter than either.
   */
  async verify(tenant: Tenant): Promise<ChainVerification> {
    await this.k.audit.seal(tenant.workspaceId)
    const v = await this.k.audit.verify(tenant.workspaceId)
    const anchor = await repo.lastChainAnchor(this.k.db, tenant.workspaceId)
    if (!v.intact || !anchor) return v
    const at = await repo.chainEntry(this.k.db, tenant.workspaceId, anchor.seq)
    if (!at || at.hash !== anchor.hash) {
      return {
        ...v,
        intact: false,
        broken: { seq: anchor.seq, id: at?.id ?? null, reason: `the entry recorded as the chain head by evidence ${anchor.evidenceId} is ${at ? 'different' : 'missing'}` },
      }
    }
    return v
  }
}
