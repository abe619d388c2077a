import { defineRoute } from '../../../kernel/http/define-route.js'
import { incoming } from '../playground.service.js'
import { PlaygroundParams, PlaygroundQuery, PlaygroundReceipt } from '../webhooks.schemas.js'

type CaptureMethod = 'POST' | 'PUT' | 'PATCH' | 'DELETE'
const NOTES: Partial<Record<CaptureMethod, string>> = {
  POST: ' Point a webhook endpoint at this URL to see our deliveries with signature diagnostics.',
  DELETE: ' DELETE is captured like any other method (the inbox is not emptied: use a new token); send an Idempotency-Key to make a retried DELETE record once.',
}

/** One Playground capture operation: the four write methods differ only in their method and wording. */
export function playgroundCaptureRoute<M extends CaptureMethod>(method: M, operationId: `captureWebhookPlayground${Capitalize<Lowercase<M>>}`) {
  return defineRoute({
    operationId,
    method,
    url: '/webhooks/playground/{token}',
    module: 'webhooks',
    scope: 'webhooks:write',
    public: true,
    rawBody: true,
    summary: `Webhook Playground: record this ${method} request`,
    description:
      'No API key (an Authorization header is never checked, and is removed from the capture); any content type. ' +
      `Answers 200 with the capture id and the inbox URL (GET it to list the captures).${NOTES[method] ?? ''}`,
    schema: { params: PlaygroundParams, querystring: PlaygroundQuery, response: { 200: PlaygroundReceipt } },
    errors: ['playground_token_invalid'],
    handler: ({ params, request, services }) => {
      const { mode, req } = incoming(request)
      return services.webhookPlayground.capture(params.token, mode, req)
    },
  })
}
