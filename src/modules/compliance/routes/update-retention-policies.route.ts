import { defineRoute } from '../../../kernel/http/define-route.js'
import { RetentionPolicies, UpdateRetentionBody } from '../compliance.schemas.js'

export const updateRetentionPolicies = defineRoute({
  operationId: 'updateRetentionPolicies',
  method: 'PATCH',
  url: '/compliance/retention',
  module: 'compliance',
  scope: 'write',
  summary: 'Update the retention policies',
  description:
    'Set any class to a number of days or `keep`. A class’s minimum (the audit log: 365 days), an unknown class or the fixed Playground is ' +
    '422. With `dry_run: true` nothing is saved and `dry_run` counts what each class would delete now — exactly what enforcement with the ' +
    'same policies deletes. The worker enforces policies continuously in batches (retention.enforced).',
  schema: { body: UpdateRetentionBody, response: { 200: RetentionPolicies } },
  handler: ({ body, principal, services }) => services.compliance.retention.update(principal, body),
})
