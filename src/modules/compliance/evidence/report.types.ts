/**
 * An evidence report as stored (JSON) and as rendered (PDF): everything the PDF shows is here, already worded
 * and formatted by whoever gathered it, so the renderer only lays it out.
 */
export interface EvidenceReport {
  kind: 'audit_chain' | 'access_review' | 'retention' | 'dsar_timeliness'
  /** e.g. "Audit log chain verification". */
  title: string
  workspace: { id: string; name: string }
  mode: 'live' | 'test'
  /** ISO dates. */
  period: { from: string; to: string }
  generated_at: string
  /** Key figures ("Entries verified" → "1,204", "Result" → "Intact"). */
  summary: EvidenceFigure[]
  sections: EvidenceSection[]
  /** SHA-256 of the stored JSON, filled by the caller; printed in the footer so a printout can be matched to it. */
  checksum?: string
}

export interface EvidenceFigure {
  label: string
  value: string
}

export interface EvidenceSection {
  heading: string
  text?: string
  table?: EvidenceTable
}

export interface EvidenceTable {
  columns: string[]
  rows: string[][]
}
