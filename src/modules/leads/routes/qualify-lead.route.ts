import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, Lead, QualifyLeadBody } from '../leads.schemas.js'

export const qualifyLead = defineRoute({
  operationId: 'qualifyLead',
  method: 'POST',
  url: '/leads/{id}/qualify',
  module: 'leads',
  scope: 'leads:write',
  summary: 'Qualify a lead (BANT)',
  description:
    "Evaluates budget, authority, need and timeline from the lead's conversation and the `answers` given, each criterion with its " +
    'evidence (the message that shows it); returns the lead with `qualification` (score, recommended status). With `apply: true` ' +
    'the lead moves to the recommended status when the machine allows it.',
  schema: { params: IdParams, body: QualifyLeadBody, response: { 200: Lead } },
  errors: ['resource_not_found'],
  handler: ({ params, body, principal, services }) => services.leads.status.qualify(principal, params.id, body ?? {}),
})
