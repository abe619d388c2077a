import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ApiLogList, ListApiLogsQuery } from '../logs.schemas.js'

export const listApiLogs = defineRoute({
  operationId: 'listApiLogs',
  method: 'GET',
  url: '/api-logs',
  module: 'developer',
  scope: 'read',
  minRole: 'admin', // every caller's requests, addresses and errors
  summary: 'List API request logs',
  description:
    'The requests made with this workspace’s keys on this base URL, newest first: method, path, operation, status, duration, key, client address, user agent and error code — never bodies, query strings or credentials. ' +
    'Filters: `status` or `status_class`, `method`, `operation_id`, `key_id`, `request_id`, `created_gte` / `created_lt`. Entries are written in batches: a request shows here within about a second.',
  schema: { querystring: ListApiLogsQuery, response: { 200: ApiLogList } },
  handler: ({ query, principal, services }) => services.apiLogs.list(principal, query),
})
