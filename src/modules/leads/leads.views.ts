import { fromJson } from '../../kernel/db/database.js'
import type { ActivityT, LeadT } from './leads.schemas.js'
import type { LeadActivitiesTable, LeadsTable } from './leads.tables.js'

// Pure row → resource mappers (the API's and the events' shapes).

export function leadView(r: LeadsTable): LeadT {
  return {
    id: r.id,
    object: 'lead',
    name: r.name,
    email: r.email,
    phone: r.phone,
    company: r.company,
    title: r.title,
    source: r.source,
    source_id: r.source_id,
    owner_id: r.owner_id,
    status: r.status,
    score: { score: Number(r.score), factors: fromJson(r.score_factors, []) },
    qualification: fromJson(r.qualification, null),
    properties: fromJson(r.properties, {}),
    tags: fromJson(r.tags, []),
    crm: { provider: r.crm_provider, external_id: r.crm_external_id, last_synced_at: r.crm_synced_at, sync_status: r.crm_sync_status, last_error: r.crm_last_error },
    created_at: r.created_at,
    updated_at: r.updated_at,
  }
}

export function activityView(r: LeadActivitiesTable): ActivityT {
  return {
    id: r.id,
    object: 'lead_activity',
    lead_id: r.lead_id,
    type: r.type,
    subject: r.subject,
    body: r.body,
    data: fromJson(r.data, {}),
    actor: r.actor,
    occurred_at: r.occurred_at,
    created_at: r.created_at,
  }
}
