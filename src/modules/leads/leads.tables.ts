import type { Mode } from '../../kernel/tenant.js'

export type LeadStatus = 'new' | 'contacted' | 'qualified' | 'converted' | 'unqualified' | 'lost'
export type LeadSource = 'conversation' | 'bot' | 'voice_call' | 'api' | 'import'
export type SyncStatus = 'never' | 'pending' | 'synced' | 'failed'
export type ActivityType = 'note' | 'email' | 'call' | 'meeting' | 'task' | 'status_change' | 'qualification' | 'sync'

export interface LeadsTable {
  id: string
  workspace_id: string
  mode: Mode
  name: string | null
  /** Lower-cased; unique per workspace and mode (a second lead with it is 409). */
  email: string | null
  /** E.164. */
  phone: string | null
  company: string | null
  title: string | null
  source: LeadSource
  source_id: string | null
  owner_id: string | null
  status: LeadStatus
  score: number
  /** JSON string[]: why the score is what it is. */
  score_factors: string
  /** JSON of the last qualification, or null. */
  qualification: string | null
  properties: string
  tags: string
  crm_provider: string | null
  crm_external_id: string | null
  crm_synced_at: string | null
  crm_sync_status: SyncStatus
  crm_last_error: string | null
  /** Counts sync requests: part of the CRM call's Idempotency-Key. */
  crm_sync_seq: number
  created_at: string
  updated_at: string
}

export interface LeadActivitiesTable {
  id: string
  workspace_id: string
  mode: Mode
  lead_id: string
  type: ActivityType
  subject: string | null
  body: string | null
  /** JSON details (a status change's from/to/reason, a sync's outcome). */
  data: string
  /** The API key that recorded it, or `system`. */
  actor: string
  occurred_at: string
  created_at: string
}

declare module '../../kernel/db/database.js' {
  interface Tables {
    leads: LeadsTable
    lead_activities: LeadActivitiesTable
  }
}
