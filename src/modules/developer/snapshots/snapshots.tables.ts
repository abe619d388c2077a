import type { Mode } from '../../../kernel/tenant.js'

export interface OpenApiSnapshotsTable {
  id: string
  workspace_id: string
  mode: Mode
  label: string | null
  /** `info.version` of the document (the API version). */
  api_version: string
  /** `openapi` of the document (3.1.0). */
  openapi_version: string
  /** SHA-256 (hex) of the document's canonical JSON: the bytes stored under `document_key`. */
  sha256: string
  operation_count: number
  size_bytes: number
  /** Blob key of the canonical JSON; content-addressed (`developer/openapi/<sha256>.json`), so shared by equal documents. */
  document_key: string
  /** The snapshot the diff is from (the tenant's latest when this one was taken); null for the first. */
  previous_id: string | null
  /** 1 when the document is byte-identical to the previous snapshot's. */
  unchanged: number
  /** JSON OpenApiDiff from the previous snapshot; null for the first. */
  diff: string | null
  breaking_count: number
  created_at: string
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    developer_openapi_snapshots: OpenApiSnapshotsTable
  }
}
