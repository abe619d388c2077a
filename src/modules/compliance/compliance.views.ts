import { fromJson } from '../../kernel/db/database.js'
import type { AuditLogTable } from '../../kernel/db/kernel.tables.js'
import type { AuditEntryT, DsarRequestT, EvidenceT } from './compliance.schemas.js'
import type { ComplianceEvidenceTable, DsarRequestsTable } from './compliance.tables.js'

// Pure row → resource mappers (the API's and the events' shapes).

export function auditView(r: AuditLogTable): AuditEntryT {
  return {
    id: r.id,
    object: 'audit_entry',
    actor: { type: r.actor_type as AuditEntryT['actor']['type'], id: r.actor_id },
    action: r.action,
    target: { type: r.target_type, id: r.target_id },
    fields: fromJson(r.fields, []),
    events: fromJson(r.events, []),
    ip: r.ip,
    user_agent: r.user_agent,
    request_id: r.request_id,
    livemode: r.mode === 'live',
    occurred_at: r.occurred_at,
    chain: { seq: r.seq === null ? null : Number(r.seq), prev_hash: r.prev_hash, hash: r.hash },
  }
}

/** `link`: the export's download URL while valid (the caller opens the sealed token). */
export function dsarView(r: DsarRequestsTable, now: Date, link: string | null): DsarRequestT {
  const progress = fromJson<Record<string, DsarRequestT['progress'][number]>>(r.progress, {})
  const list = Object.values(progress)
  const expired = r.export_expires_at !== null && Date.parse(r.export_expires_at) <= now.getTime()
  return {
    id: r.id,
    object: 'dsar_request',
    type: r.type,
    status: r.status,
    subject: { email: r.subject_email, phone: r.subject_phone, external_id: r.subject_external_id },
    changes: fromJson(r.changes, {}),
    notes: r.notes,
    due_at: r.due_at,
    overdue: r.status !== 'completed' && r.status !== 'rejected' && Date.parse(r.due_at) < now.getTime(),
    progress: list,
    records_found: list.reduce((n, p) => n + Object.values(p.records).reduce((a, b) => a + b, 0), 0),
    export: {
      status: r.export_status,
      url: r.export_status === 'ready' && !expired ? link : null,
      expires_at: r.export_expires_at,
      sha256: r.export_sha256,
      size_bytes: r.export_size === null ? null : Number(r.export_size),
      error: r.export_error,
    },
    created_at: r.created_at,
    updated_at: r.updated_at,
    completed_at: r.completed_at,
  }
}

export function evidenceView(r: ComplianceEvidenceTable, base: string): EvidenceT {
  const url = `${base}/compliance/evidence/${r.id}/download`
  return {
    id: r.id,
    object: 'compliance_evidence',
    kind: r.kind,
    period: { from: r.period_from, to: r.period_to },
    trigger: r.trigger,
    summary: fromJson(r.summary, {}),
    sha256: r.sha256,
    generated_at: r.generated_at,
    download: { pdf: `${url}?format=pdf`, json: `${url}?format=json` },
  }
}
