import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateEvidenceBody, Evidence } from '../compliance.schemas.js'

export const createComplianceEvidence = defineRoute({
  operationId: 'createComplianceEvidence',
  method: 'POST',
  url: '/compliance/evidence',
  module: 'compliance',
  scope: 'write',
  summary: 'Generate an evidence report',
  description:
    'Makes one report of `kind` now, over `from` … `to` (default: the 30 days to now; at most 366 days, not in the future), ' +
    'stored as JSON and PDF like the daily ones, with trigger `manual`. Answers when the report is ready; download it from `download`.',
  schema: { body: CreateEvidenceBody, response: { 201: Evidence } },
  handler: ({ body, principal, services }) => services.compliance.evidence.create(principal, body),
})
