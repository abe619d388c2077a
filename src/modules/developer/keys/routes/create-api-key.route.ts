import { defineRoute } from '../../../../kernel/http/define-route.js'
import { CreateApiKeyBody, CreatedApiKey } from '../keys.schemas.js'

export const createApiKey = defineRoute({
  operationId: 'createApiKey',
  method: 'POST',
  url: '/api-keys',
  module: 'developer',
  scope: 'admin',
  summary: 'Create an API key',
  description:
    'Makes a key for this workspace in this mode (`svc_live_…` on /v2, `svc_test_…` on /sandbox/v2) with the chosen scopes. The answer carries ' +
    'the key in `key`, this once: only its SHA-256 is stored. A retried request with the same Idempotency-Key gets the same answer (stored encrypted).',
  schema: { body: CreateApiKeyBody, response: { 201: CreatedApiKey } },
  handler: ({ body, principal, services }) => services.apiKeys.create(principal, body),
})
