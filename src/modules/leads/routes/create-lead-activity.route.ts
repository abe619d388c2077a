import { defineRoute } from '../../../kernel/http/define-route.js'
import { Activity, CreateActivityBody, IdParams } from '../leads.schemas.js'

export const createLeadActivity = defineRoute({
  operationId: 'createLeadActivity',
  method: 'POST',
  url: '/leads/{id}/activities',
  module: 'leads',
  scope: 'leads:write',
  summary: 'Record a lead activity',
  description: 'A note, e-mail, call, meeting or task; engagements count in the lead score, which is recomputed.',
  schema: { params: IdParams, body: CreateActivityBody, response: { 201: Activity } },
  errors: ['resource_not_found'],
  handler: ({ params, body, principal, services }) => services.leads.activities.create(principal, params.id, body),
})
