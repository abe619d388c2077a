import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateDsarBody, DsarRequest } from '../compliance.schemas.js'

export const createDsarRequest = defineRoute({
  operationId: 'createDsarRequest',
  method: 'POST',
  url: '/compliance/dsar',
  module: 'compliance',
  scope: 'write',
  summary: 'Create a data-subject request',
  description:
    'An access, erasure or rectification request for the person identified by `subject.email`, `subject.phone` and/or `subject.external_id` ' +
    '(at least one: 422 otherwise), due in 30 days by default. A job works it through every module (dsar.completed); erasure deletes or ' +
    'anonymises the subject’s data as docs/compliance.md documents per module and keeps the audit trail.',
  schema: { body: CreateDsarBody, response: { 201: DsarRequest } },
  handler: ({ body, principal, services }) => services.compliance.dsar.create(principal, body),
})
