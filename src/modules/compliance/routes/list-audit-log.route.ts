import { defineRoute } from '../../../kernel/http/define-route.js'
import { ListAuditLogQuery, AuditEntryList } from '../compliance.schemas.js'

export const listAuditLog = defineRoute({
  operationId: 'listAuditLog',
  method: 'GET',
  url: '/compliance/audit-log',
  module: 'compliance',
  scope: 'read',
  minRole: 'admin', // who did what, from where: for those who run the workspace
  summary: 'List the audit log',
  description: 'Every change made through the API, the CLI or the system, newest first, with its hash-chain link. Filters: `actor_type`, `actor_id`, `action`, `target_id`, `from` / `to`.',
  schema: { querystring: ListAuditLogQuery, response: { 200: AuditEntryList } },
  handler: ({ query, principal, services }) => services.compliance.audit.list(principal, query),
})
