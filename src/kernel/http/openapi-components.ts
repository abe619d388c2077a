import { API_VERSION } from '../events/events.js'
import type { AnyRoute } from './define-route.js'
import { ref, type Json } from './openapi-registry.js'
import { WRITE_METHODS } from './problem-statuses.js'

/** The shared components: the request headers operations take and the response headers they answer with. */
export const PARAMETERS: Record<string, Json> = {
  IdempotencyKey: {
    name: 'Idempotency-Key',
    in: 'header',
    required: false,
    description:
      'Makes a retried request take effect once: the same key with the same method, path and body answers the first ' +
      'response again (with `Idempotent-Replayed: true`); with another payload 409 `idempotency_key_reused`. Scoped to the ' +
      'API key, kept 24 hours (IDEMPOTENCY_RETENTION_HOURS). On an event stream the same key replays the whole stream once it ' +
      'ended without an `error` event (while it runs: 409 `idempotency_request_in_progress`); a resume sends `Last-Event-ID` ' +
      'instead. See docs/api-conventions.md.',
    schema: { type: 'string', minLength: 1, maxLength: 255 },
  },
  LastEventId: {
    name: 'Last-Event-ID',
    in: 'header',
    required: false,
    description:
      'Resumes an event stream: the id of the last event received (`<stream id>:<n>`). The same request (method and path) ' +
      'then answers the events after it and, while the work runs, the live ones, without starting the work again. Events are ' +
      'kept 60 s after the stream ends, by the process that served it; an unknown, expired or foreign stream → 404 ' +
      '`stream_not_found`. See docs/api-conventions.md "Event streams".',
    schema: { type: 'string', maxLength: 128, examples: ['sse_Q2x9mN4pV7rT1wY3zA6bCg:3'] },
  },
}

export const HEADERS: Record<string, Json> = {
  XRequestId: {
    description: "The request id: the client's own X-Request-ID when it is ≤ 128 characters of [A-Za-z0-9._:-], else a generated `req_…`; also `request_id` in problems.",
    schema: { type: 'string' },
  },
  SvcApiVersion: { description: `The API version that answered (${API_VERSION}).`, schema: { type: 'string', examples: [API_VERSION] } },
  XRateLimitLimit: { description: 'Requests allowed in the current window (per API key; per client address without a known key).', schema: { type: 'integer' } },
  XRateLimitRemaining: { description: 'Requests left in the current window.', schema: { type: 'integer' } },
  XRateLimitReset: { description: 'When the current window ends, in UTC epoch seconds.', schema: { type: 'integer' } },
  RateLimit: { description: 'IETF draft field, e.g. `"default";r=599;t=42` (remaining requests, seconds to the reset).', schema: { type: 'string' } },
  RateLimitPolicy: { description: 'IETF draft field, e.g. `"default";q=600;w=60` (`"replay"` for webhook delivery replays).', schema: { type: 'string' } },
  RetryAfter: { description: 'Seconds to wait before retrying.', schema: { type: 'integer', minimum: 0 } },
  IdempotentReplayed: {
    description: '`true` when this is the stored response of an earlier request with the same Idempotency-Key (nothing happened again).',
    schema: { type: 'string', enum: ['true'] },
  },
  WwwAuthenticate: { description: 'The authentication scheme: `Bearer realm="svc"`.', schema: { type: 'string' } },
  Allow: { description: 'The methods the path does allow.', schema: { type: 'string' } },
}

export function responseHeaders(r: AnyRoute, status: number): Json {
  const h: Record<string, Json> = {
    'X-Request-ID': ref('headers', 'XRequestId'),
    'Svc-Api-Version': ref('headers', 'SvcApiVersion'),
    // Every request is counted (a known key's own budget, else the client address's).
    'X-RateLimit-Limit': ref('headers', 'XRateLimitLimit'),
    'X-RateLimit-Remaining': ref('headers', 'XRateLimitRemaining'),
    'X-RateLimit-Reset': ref('headers', 'XRateLimitReset'),
    RateLimit: ref('headers', 'RateLimit'),
    'RateLimit-Policy': ref('headers', 'RateLimitPolicy'),
  }
  const write = WRITE_METHODS.has(r.method)
  if (status === 429 || status === 503 || (status === 409 && write)) h['Retry-After'] = ref('headers', 'RetryAfter')
  if (status >= 200 && status < 300 && write) h['Idempotent-Replayed'] = ref('headers', 'IdempotentReplayed')
  if (status === 401) h['WWW-Authenticate'] = ref('headers', 'WwwAuthenticate')
  if (status === 405) h.Allow = ref('headers', 'Allow')
  return h
}
