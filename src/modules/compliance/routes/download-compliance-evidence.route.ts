import { defineRoute } from '../../../kernel/http/define-route.js'
import { DownloadQuery, EvidenceReportJson, IdParams } from '../compliance.schemas.js'

export const downloadComplianceEvidence = defineRoute({
  operationId: 'downloadComplianceEvidence',
  method: 'GET',
  url: '/compliance/evidence/{id}/download',
  module: 'compliance',
  scope: 'read',
  minRole: 'admin', // access reviews and evidence reports
  summary: 'Download an evidence report',
  description: 'The report as PDF (`?format=pdf`, the default, or `Accept: application/pdf`) or as the JSON it was rendered from (`?format=json`), whose SHA-256 the listing shows.',
  media: { type: 'application/pdf', description: 'the default, or `?format=pdf`; Range supported' },
  schema: { params: IdParams, querystring: DownloadQuery, response: { 200: EvidenceReportJson } },
  errors: ['resource_not_found', 'range_not_satisfiable'],
  // The file is sent on `reply` (a stream); returning the reply tells Fastify it is taken care of.
  handler: async ({ params, query, principal, services, request, reply }) => {
    const accept = request.headers.accept ?? ''
    const format = query.format ?? (/application\/json/.test(accept) && !/application\/pdf/.test(accept) ? 'json' : 'pdf')
    return (await services.compliance.evidence.download(principal, params.id, format, request, reply)) as unknown as Record<string, never>
  },
})
