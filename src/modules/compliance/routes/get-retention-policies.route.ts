import { defineRoute } from '../../../kernel/http/define-route.js'
import { RetentionPolicies } from '../compliance.schemas.js'

export const getRetentionPolicies = defineRoute({
  operationId: 'getRetentionPolicies',
  method: 'GET',
  url: '/compliance/retention',
  module: 'compliance',
  scope: 'read',
  summary: 'Get the retention policies',
  description: 'The policy of each data class (days or `keep`), the classes with their minimums, and the last enforcement run.',
  schema: { response: { 200: RetentionPolicies } },
  handler: ({ principal, services }) => services.compliance.retention.get(principal),
})
