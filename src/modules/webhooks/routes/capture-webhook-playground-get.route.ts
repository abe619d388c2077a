import { defineRoute } from '../../../kernel/http/define-route.js'
import { Page } from '../../../kernel/http/pagination.js'
import { incoming } from '../playground.service.js'
import { PlaygroundCapture, PlaygroundParams, PlaygroundQuery } from '../webhooks.schemas.js'

export const captureWebhookPlaygroundGet = defineRoute({
  operationId: 'captureWebhookPlaygroundGet',
  method: 'GET',
  url: '/webhooks/playground/{token}',
  module: 'webhooks',
  scope: 'webhooks:read',
  public: true,
  rawBody: true,
  summary: 'Webhook Playground: record this GET, then list the inbox newest first',
  description:
    'No API key. Any token of 22–64 characters [A-Za-z0-9_-] names an inbox (created by its first capture; a malformed token answers 404). ' +
    'The GET itself is recorded first, so it is the newest item of the first page. Captures are kept 24 hours, at most 100 per inbox; ' +
    'bodies up to 256 KiB (base64 when binary); credentials headers are removed. Deliveries from this service carry signature diagnostics.',
  schema: { params: PlaygroundParams, querystring: PlaygroundQuery, response: { 200: Page(PlaygroundCapture, 'WebhookPlaygroundCapture') } },
  errors: ['playground_token_invalid', 'invalid_cursor'],
  handler: ({ params, query, request, services }) => {
    const { mode, req } = incoming(request)
    return services.webhookPlayground.captureAndList(params.token, mode, req, query)
  },
})
