import type { Mode } from '../../../kernel/tenant.js'

export type FollowupStatus = 'pending' | 'sending' | 'sent' | 'cancelled' | 'failed'

/**
 * A reply to a web chat visitor that goes by e-mail unless they see it in the widget first (one row per
 * reply, written in the reply's transaction; docs/channels.md "Continued by e-mail").
 */
export interface ChannelWebFollowupsTable {
  /** The reply (an inbox message). */
  message_id: string
  workspace_id: string
  mode: Mode
  /** The web chat channel. */
  channel_id: string
  conversation_id: string
  visitor_id: string
  /** pending → sending → sent; or cancelled (read first, no address any more) / failed. */
  status: FollowupStatus
  /** When it is sent unless read before. */
  due_at: string
  /** Why it was cancelled or failed (`read`, `no_email`, `smtp_550`, `outcome_unknown`, …); the mail's Message-ID once sent. */
  outcome: string | null
  created_at: string
  updated_at: string
}

declare module '../../../kernel/db/database.js' {
  interface Tables {
    channel_web_followups: ChannelWebFollowupsTable
  }
}
