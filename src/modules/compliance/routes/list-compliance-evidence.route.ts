import { defineRoute } from '../../../kernel/http/define-route.js'
import { ListEvidenceQuery, EvidenceList } from '../compliance.schemas.js'

export const listComplianceEvidence = defineRoute({
  operationId: 'listComplianceEvidence',
  method: 'GET',
  url: '/compliance/evidence',
  module: 'compliance',
  scope: 'read',
  minRole: 'admin', // access reviews and evidence reports
  summary: 'List evidence reports',
  description: 'Audit-chain verification, access review, retention runs and DSAR timeliness, generated daily and on demand (createComplianceEvidence, the CLI), newest first.',
  schema: { querystring: ListEvidenceQuery, response: { 200: EvidenceList } },
  handler: ({ query, principal, services }) => services.compliance.evidence.list(principal, query),
})
