import { defineRoute } from '../../../kernel/http/define-route.js'
import { ListDsarQuery, DsarRequestList } from '../compliance.schemas.js'

export const listDsarRequests = defineRoute({
  operationId: 'listDsarRequests',
  method: 'GET',
  url: '/compliance/dsar',
  module: 'compliance',
  scope: 'read',
  minRole: 'admin', // data subjects' requests and their exports
  summary: 'List data-subject requests',
  description: 'Newest first; filter by `status` and `type`.',
  schema: { querystring: ListDsarQuery, response: { 200: DsarRequestList } },
  handler: ({ query, principal, services }) => services.compliance.dsar.list(principal, query),
})
