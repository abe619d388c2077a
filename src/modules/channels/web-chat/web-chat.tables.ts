import type { Mode } from '../../../kernel/tenant.js'

/** A file a web chat visitor sent (an image or a PDF), kept as a blob; its id is the capability in its URL. */
export interface ChannelWebAttachmentsTable {
  /** `wfa_` + 32 hex: derived from the visitor and the message's client id (a retried upload is the same file), unguessable. */
  id: string
  channel_id: string
  visitor_id: string
  workspace_id: string
  mode: Mode
  blob_key: string
  filename: string
  content_type: string
  size_bytes: number
  created_at: string
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    channel_web_attachments: ChannelWebAttachmentsTable
  }
}
