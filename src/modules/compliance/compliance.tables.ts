import type { Mode } from '../../kernel/tenant.js'

export type DsarType = 'access' | 'erasure' | 'rectification'
export type DsarStatus = 'received' | 'in_progress' | 'completed' | 'rejected'
export type ExportStatus = 'none' | 'pending' | 'ready' | 'failed'

export interface DsarRequestsTable {
  id: string
  workspace_id: string
  mode: Mode
  type: DsarType
  status: DsarStatus
  /** Lower-cased. */
  subject_email: string | null
  /** E.164. */
  subject_phone: string | null
  subject_external_id: string | null
  /** JSON: rectification's corrected values. */
  changes: string
  notes: string | null
  due_at: string
  /** JSON { [module]: { status, records: { [kind]: count }, deleted?, anonymised?, error? } }. */
  progress: string
  export_status: ExportStatus
  export_key: string | null
  export_sha256: string | null
  export_size: number | null
  /** SHA-256 of the download token: how the public link finds its export. */
  export_token_hash: string | null
  /** The token sealed (secrets at rest), so getDsarRequest can show the link until it expires. */
  export_token_sealed: string | null
  export_expires_at: string | null
  export_error: string | null
  created_at: string
  updated_at: string
  completed_at: string | null
}

export interface RetentionPoliciesTable {
  workspace_id: string
  mode: Mode
  /** JSON { [class]: days | 'keep' }. */
  policies: string
  updated_at: string
}

export interface RetentionRunsTable {
  id: string
  workspace_id: string
  mode: Mode
  /** JSON { [class]: { cutoff, deleted } }. */
  deleted: string
  started_at: string
  finished_at: string
}

export type EvidenceKind = 'audit_chain' | 'access_review' | 'retention' | 'dsar_timeliness'

export interface ComplianceEvidenceTable {
  id: string
  workspace_id: string
  mode: Mode
  kind: EvidenceKind
  period_from: string
  period_to: string
  trigger: 'schedule' | 'manual'
  /** JSON summary figures shown in lists. */
  summary: string
  json_key: string
  pdf_key: string
  sha256: string
  generated_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    dsar_requests: DsarRequestsTable
    retention_policies: RetentionPoliciesTable
    retention_runs: RetentionRunsTable
    compliance_evidence: ComplianceEvidenceTable
  }
}
