import { defineRoute } from '../../../kernel/http/define-route.js'
import { incoming } from '../playground.service.js'
import { PlaygroundParams, PlaygroundQuery, PlaygroundReceipt } from '../webhooks.schemas.js'

export const captureWebhookPlaygroundPatch = defineRoute({
  operationId: 'captureWebhookPlaygroundPatch',
  method: 'PATCH',
  url: '/webhooks/playground/{token}',
  module: 'webhooks',
  scope: 'webhooks:write',
  public: true,
  rawBody: true,
  summary: 'Webhook Playground: record this PATCH request',
  description:
    'No API key; any content type. Answers 200 with the capture id and the inbox URL (GET it to list the captures).',
  schema: { params: PlaygroundParams, querystring: PlaygroundQuery, response: { 200: PlaygroundReceipt } },
  errors: ['playground_token_invalid'],
  handler: ({ params, request, services }) => {
    const { mode, req } = incoming(request)
    return services.webhookPlayground.capture(params.token, mode, req)
  },
})
