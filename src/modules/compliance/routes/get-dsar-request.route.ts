import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, DsarRequest } from '../compliance.schemas.js'

export const getDsarRequest = defineRoute({
  operationId: 'getDsarRequest',
  method: 'GET',
  url: '/compliance/dsar/{id}',
  module: 'compliance',
  scope: 'read',
  minRole: 'admin', // data subjects' requests and their exports
  summary: 'Get a data-subject request',
  description: 'Its status, progress per module (records found by kind, deleted / anonymised) and the export link while valid.',
  schema: { params: IdParams, response: { 200: DsarRequest } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.compliance.dsar.get(principal, params.id),
})
