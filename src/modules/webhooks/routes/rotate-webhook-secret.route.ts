import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, RotateSecretBody, WebhookEndpointWithSecret } from '../webhooks.schemas.js'

export const rotateWebhookSecret = defineRoute({
  operationId: 'rotateWebhookSecret',
  method: 'POST',
  url: '/webhooks/endpoints/{id}/rotate-secret',
  module: 'webhooks',
  scope: 'webhooks:write',
  summary: 'Rotate the signing secret',
  description:
    'Returns the new secret once. The previous secret keeps signing alongside it for grace_period_seconds (default 24 h; 0 = stop now), ' +
    'so during the grace period Svc-Status-Signature carries one v1= per secret.',
  schema: { params: IdParams, body: RotateSecretBody, response: { 200: WebhookEndpointWithSecret } },
  errors: ['resource_not_found'],
  handler: ({ params, body, principal, services }) => services.webhooks.endpoints.rotateSecret(principal, params.id, body),
})
