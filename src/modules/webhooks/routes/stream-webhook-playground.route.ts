import type { Config } from '../../../config.js'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { PlaygroundParams, PlaygroundStreamEvent, PlaygroundStreamQuery } from '../webhooks.schemas.js'

export const streamWebhookPlayground = defineRoute({
  operationId: 'streamWebhookPlayground',
  method: 'GET',
  url: '/webhooks/playground/{token}/stream',
  module: 'webhooks',
  scope: 'webhooks:read',
  public: true,
  summary: 'Webhook Playground: watch the inbox live',
  description:
    'No API key: the token is the capability. Server-Sent Events: `ready` first, then the captures already in the inbox, oldest first ' +
    '(with `after`, only those after that capture id), then each new capture as it is recorded, on any node (the database is polled about ' +
    'every 300 ms). This request itself is not recorded. The stream ends after 30 minutes; open a new one with `after` set to the last ' +
    'capture id received (Last-Event-ID resumes only on the process that served the stream). With `follow=false` it sends the ' +
    'captures already there and ends.',
  sse: {
    heartbeatMs: (config: Config) => config.sseHeartbeatMs,
    events: {
      ready: '{object: "webhook_playground_stream", token, inbox_url}: the stream is open',
      capture: 'a WebhookPlaygroundCapture, exactly as the inbox listing shows it',
    },
  },
  schema: { params: PlaygroundParams, querystring: PlaygroundStreamQuery, response: { 200: PlaygroundStreamEvent } },
  errors: ['playground_token_invalid'],
  handler: async ({ params, query, request, services, stream }) => {
    const mode = request.routeOptions.config.mode ?? 'live'
    await services.webhookPlayground.stream(
      params.token,
      mode,
      query.after,
      query.follow !== false,
      { ready: (r) => stream.send('ready', r), capture: (c) => stream.send('capture', c) },
      stream.signal,
    )
  },
})
