import type { Mode } from '../../../kernel/tenant.js'
import type { SdkLanguage } from './sdk-folder.js'

export type SdkGenerationStatus = 'queued' | 'running' | 'succeeded' | 'failed'

/** One client package built on demand from the document the server served when it was asked for. */
export interface DeveloperSdkGenerationsTable {
  id: string
  workspace_id: string
  mode: Mode
  language: SdkLanguage
  package_name: string
  version: string
  status: SdkGenerationStatus
  /** info.version of the document. */
  api_version: string
  document_sha256: string
  /** The document in the blob store until the job has used it (then deleted). */
  document_key: string | null
  /** Operations in the generated client (once generated). */
  operations: number | null
  archive_key: string | null
  archive_sha256: string | null
  archive_size: number | null
  archive_files: number | null
  /** The download link's token: its SHA-256 to find it, sealed (id as context) to show it. */
  token_hash: string
  token_sealed: string
  /** When the download link stops working (24 h after the archive is ready). */
  expires_at: string | null
  error: string | null
  created_at: string
  updated_at: string
  completed_at: string | null
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    developer_sdk_generations: DeveloperSdkGenerationsTable
  }
}
