import { defineRoute } from '../../../kernel/http/define-route.js'
import { DsarRequest, IdParams } from '../compliance.schemas.js'

export const exportDsarRequest = defineRoute({
  operationId: 'exportDsarRequest',
  method: 'POST',
  url: '/compliance/dsar/{id}/export',
  module: 'compliance',
  scope: 'write',
  summary: 'Export a data subject’s data',
  description:
    'Starts a job that gathers every record about the subject from every module into a ZIP (one JSON file per module, their call recordings, ' +
    'the audit entries about them, a manifest with the SHA-256 of each file, a summary). 202 with `export.status` pending; when ready, ' +
    '`export.url` is a download link (no key needed) valid 24 hours, then 410. A new export replaces the link.',
  schema: { params: IdParams, response: { 202: DsarRequest } },
  errors: ['resource_not_found', 'dsar_rejected'],
  handler: ({ params, principal, services }) => services.compliance.dsar.export(principal, params.id),
})
