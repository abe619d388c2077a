import { defineRoute } from '../../../kernel/http/define-route.js'
import { Health } from '../health.schemas.js'

export const getApiHealth = defineRoute({
  operationId: 'getApiHealth',
  method: 'GET',
  url: '/health',
  module: 'health',
  scope: 'read',
  summary: 'Status of the database, the job queue and each module',
  description: 'Answers 503 (same body) when the database is unreachable. Modules not in this build report `not_available`.',
  schema: { response: { 200: Health, 503: Health } },
  errors: ['service_unavailable'],
  handler: async ({ services, reply }) => {
    const { healthy, body } = await services.health.report()
    if (!healthy) reply.code(503)
    return body as never
  },
})
