import { archiveFolder } from './sdk-archive.js'
import type { SdkGenerationT } from './sdk-generations.schemas.js'
import type { DeveloperSdkGenerationsTable } from './sdk-generations.tables.js'

export const archiveFilename = (r: Pick<DeveloperSdkGenerationsTable, 'package_name' | 'version'>) => `${archiveFolder(r.package_name, r.version)}.zip`

/** Row → resource; `link` is the download URL (null in events, and once the link expired). */
export function generationView(r: DeveloperSdkGenerationsTable, now: Date, link: string | null): SdkGenerationT {
  const ready = r.status === 'succeeded' && r.archive_sha256 !== null && r.archive_size !== null && r.expires_at !== null
  const expired = r.expires_at !== null && Date.parse(r.expires_at) <= now.getTime()
  return {
    id: r.id,
    object: 'sdk_generation',
    language: r.language,
    package_name: r.package_name,
    version: r.version,
    status: r.status,
    error: r.error,
    api_version: r.api_version,
    document_sha256: r.document_sha256,
    operations: r.operations,
    archive: ready
      ? { format: 'zip', filename: archiveFilename(r), size_bytes: r.archive_size!, sha256: r.archive_sha256!, files: r.archive_files ?? 0, url: expired ? null : link, expires_at: r.expires_at! }
      : null,
    created_at: r.created_at,
    completed_at: r.completed_at,
  }
}
