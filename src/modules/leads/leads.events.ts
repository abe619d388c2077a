import { defineEvents, eventType, type PayloadsOf } from '../../kernel/events/events.js'
import { DeletedLead, Lead, type LeadT } from './leads.schemas.js'

const LEAD_EXAMPLE: LeadT = {
  id: 'lead_01JD0000000000000000000000',
  object: 'lead',
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  phone: '+442079460958',
  company: 'Analytical Engines Ltd',
  title: 'CTO',
  source: 'conversation',
  source_id: 'conv_01JD0000000000000000000000',
  owner_id: null,
  status: 'new',
  score: { score: 55, factors: ['+20 contact gave an email address (conversation)', '+25 asked about pricing (conversation)', '+10 company given (Analytical Engines Ltd)'] },
  qualification: null,
  properties: { plan: 'enterprise' },
  tags: ['inbound'],
  crm: { provider: null, external_id: null, last_synced_at: null, sync_status: 'never', last_error: null },
  created_at: '2026-11-27T09:00:00.000Z',
  updated_at: '2026-11-27T09:00:00.000Z',
}
const synced: LeadT = { ...LEAD_EXAMPLE, crm: { provider: 'hubspot', external_id: '51', last_synced_at: '2026-11-27T09:01:00.000Z', sync_status: 'synced', last_error: null } }

/** Every event type of the leads module. */
export const LEADS_EVENTS = defineEvents(
  'leads',
  { scope: 'leads:read' },
  {
    'lead.created': eventType({ description: 'A lead was created (through the API or from a conversation).', schema: Lead, example: LEAD_EXAMPLE }),
    'lead.updated': eventType({ description: 'A lead changed (fields, owner, score).', schema: Lead, example: LEAD_EXAMPLE }),
    'lead.deleted': eventType({ description: 'A lead and its activities were deleted.', schema: DeletedLead, example: { id: LEAD_EXAMPLE.id, object: 'lead', deleted: true } }),
    'lead.status_changed': eventType({
      description: 'A lead moved in the status machine (the activity records from, to and reason).',
      schema: Lead,
      example: { ...LEAD_EXAMPLE, status: 'contacted' },
    }),
    'lead.qualified': eventType({ description: 'A lead was evaluated against BANT (`qualification`).', schema: Lead, example: LEAD_EXAMPLE }),
    'lead.synced': eventType({ description: 'A lead was written to the CRM (`crm.external_id`).', schema: Lead, example: synced }),
    'lead.sync_failed': eventType({
      description: 'A CRM sync failed for good (a permanent error, or retries exhausted); `crm.last_error` says why.',
      schema: Lead,
      example: { ...LEAD_EXAMPLE, crm: { ...synced.crm, sync_status: 'failed', last_error: 'HubSpot 400: Property values were not valid' } },
    }),
  },
)

declare module '../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof LEADS_EVENTS> {}
}
