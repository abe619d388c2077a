import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateLeadBody, Lead } from '../leads.schemas.js'

export const createLead = defineRoute({
  operationId: 'createLead',
  method: 'POST',
  url: '/leads',
  module: 'leads',
  scope: 'leads:write',
  summary: 'Create a lead',
  description:
    'A lead with an explainable score. The phone is stored as E.164; with `source_id` a conversation, its contact fills the fields ' +
    'left out and its messages count in the score. One lead per email: a second is 409 `lead_already_exists` with `existing_id`.',
  schema: { body: CreateLeadBody, response: { 201: Lead } },
  errors: ['lead_already_exists', 'invalid_reference'],
  handler: ({ body, principal, services }) => services.leads.leads.create(principal, body),
})
