import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ApiUsage, ApiUsageQuery, MAX_USAGE_DAYS } from '../logs.schemas.js'

export const getPublicApiUsage = defineRoute({
  operationId: 'getPublicApiUsage',
  method: 'GET',
  url: '/usage',
  module: 'developer',
  scope: 'read',
  summary: 'API requests per day by operation, status class and key, with latency per operation',
  description: `Period in UTC days, \`from\`..\`to\` inclusive, at most ${MAX_USAGE_DAYS} days; defaults to the last 7 days. Latency p50/p95 per operation come from 5 %-wide histograms (at most 5 % above the exact value).`,
  schema: { querystring: ApiUsageQuery, response: { 200: ApiUsage } },
  handler: ({ query, principal, services }) => services.apiUsage.usage(principal, query),
})
