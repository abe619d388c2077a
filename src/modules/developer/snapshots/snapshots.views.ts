import { fromJson } from '../../../kernel/db/database.js'
import type { OpenApiDiff } from './openapi-diff.js'
import type { OpenApiSnapshotT } from './snapshots.schemas.js'
import type { OpenApiSnapshotsTable } from './snapshots.tables.js'

/** Row → resource. `base`: the API base URL of the tenant's mode (the document link points into it). */
export function snapshotView(r: OpenApiSnapshotsTable, base: string, document?: Record<string, unknown>): OpenApiSnapshotT {
  return {
    id: r.id,
    object: 'openapi_snapshot',
    label: r.label,
    api_version: r.api_version,
    openapi_version: r.openapi_version,
    sha256: r.sha256,
    operation_count: Number(r.operation_count),
    size_bytes: Number(r.size_bytes),
    unchanged: Number(r.unchanged) === 1,
    previous_snapshot_id: r.previous_id,
    breaking: Number(r.breaking_count) > 0,
    diff: fromJson<OpenApiDiff | null>(r.diff, null),
    document_url: `${base}/openapi-snapshots?id=${r.id}&include=document`,
    ...(document ? { document } : {}),
    created_at: r.created_at,
  }
}
