import type { Config } from '../../../config.js'
import { AppError } from '../../../kernel/errors.js'
import { defineRoute } from '../../../kernel/http/define-route.js'
import { PlaygroundParams, PlaygroundStreamEvent, PlaygroundStreamQuery } from '../webhooks.schemas.js'

const CAPTURE_ID = /^whc_[0-9A-Z]{26}$/
/** Before every capture: `ready`'s id when the stream starts at the beginning, so a resume after it starts there too. */
const START = `whc_${'0'.repeat(26)}`

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
    "every 300 ms). This request itself is not recorded. Each `capture` event's `id` is the capture id (`ready`'s is where " +
    'the stream starts), so an EventSource resumes by itself on any node (its `Last-Event-ID` works as `after`); the stream ends after 30 minutes, and a new one with `after` ' +
    'set to the last capture id received goes on from there. With `follow=false` it sends the captures already there and ends.',
  sse: {
    heartbeatMs: (config: Config) => config.sseHeartbeatMs,
    ownIds: true,
    events: {
      ready: '{object: "webhook_playground_stream", token, inbox_url}: the stream is open',
      capture: 'a WebhookPlaygroundCapture, exactly as the inbox listing shows it',
    },
  },
  schema: { params: PlaygroundParams, querystring: PlaygroundStreamQuery, response: { 200: PlaygroundStreamEvent } },
  errors: ['playground_token_invalid'],
  handler: async ({ params, query, request, services, stream }) => {
    const mode = request.routeOptions.config.mode ?? 'live'
    const resumed = stream.lastEventId?.trim()
    if (resumed !== undefined && !CAPTURE_ID.test(resumed)) {
      throw new AppError('validation_failed', 'Last-Event-ID must be the id of a capture event received (whc_…).', {
        errors: [{ pointer: '/headers/last-event-id', detail: 'must be a capture id (whc_…)' }],
      })
    }
    const from = query.after ?? resumed ?? START
    await services.webhookPlayground.stream(
      params.token,
      mode,
      from === START ? undefined : from,
      query.follow !== false,
      { ready: (r) => stream.send('ready', r, from), capture: (c) => stream.send('capture', c, c.id) },
      stream.signal,
    )
  },
})
