import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, Lead } from '../leads.schemas.js'

export const syncLeadToCrm = defineRoute({
  operationId: 'syncLeadToCrm',
  method: 'POST',
  url: '/leads/{id}/sync',
  module: 'leads',
  scope: 'leads:write',
  summary: 'Sync a lead to the CRM',
  description:
    "Queues a durable sync to the workspace's CRM (HubSpot or a signed webhook; set with PATCH /workspaces/{id} `crm`) and answers " +
    '202 with `crm.sync_status: pending`. The job upserts (never a duplicate record), honours Retry-After on 429 and retries 5xx; ' +
    '`lead.synced` or `lead.sync_failed` tells the outcome. No CRM configured: 422 `crm_not_configured`.',
  schema: { params: IdParams, response: { 202: Lead } },
  errors: ['resource_not_found', 'crm_not_configured'],
  handler: ({ params, principal, services }) => services.leads.sync.request(principal, params.id),
})
