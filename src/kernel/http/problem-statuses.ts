import { errorSpec } from '../errors.js'
import type { AnyRoute } from './define-route.js'

export const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])
export const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT'])

// Used both for the route's response schemas (route-options.ts) and for the document (openapi-operations.ts).
/**
 * The problem statuses an operation can really answer, each with the codes it may carry:
 * 400 (malformed JSON, bad path encoding) only with a body or a path parameter; 401/403 unless public;
 * 404 only with a path parameter or a declared 404 code; 405, 422, 429, 500 and 503 everywhere; 409 where
 * the route declares a 409 code or accepts Idempotency-Key (every write); 413 only where a body is read,
 * 415 only where that body must be JSON; 414 only with a path parameter; plus the route's own codes.
 */
export function problemStatuses(r: AnyRoute): Map<number, string[]> {
  const out = new Map<number, string[]>()
  const add = (code: string) => {
    const status = errorSpec(code).status
    const list = out.get(status) ?? []
    if (!list.includes(code)) list.push(code)
    out.set(status, list)
  }
  const hasPathParams = /\{[a-z_]+\}/.test(r.url)
  const readsBody = BODY_METHODS.has(r.method)
  // Every write takes Idempotency-Key, event streams included (a repeat replays the stream that ended well).
  const write = WRITE_METHODS.has(r.method)
  // A stream kept in memory answers stream_not_found to a resume; one that resumes from the database (ownIds) never does.
  const declared = [...((r.errors ?? []) as string[]), ...(r.sse && (r.sse === true || !r.sse.ownIds) ? ['stream_not_found'] : [])]

  if (readsBody && !r.rawBody) add('malformed_json')
  if (readsBody || hasPathParams) add('bad_request')
  if (!r.public) {
    add('unauthorized')
    add('wrong_environment')
    add('insufficient_scope')
  }
  if (hasPathParams && !declared.some((c) => errorSpec(c).status === 404)) add('route_not_found')
  add('method_not_allowed')
  if (write) {
    add('idempotency_key_reused')
    add('idempotency_request_in_progress')
    add('idempotency_outcome_unavailable')
  }
  if (readsBody) add('payload_too_large')
  if (hasPathParams) add('uri_too_long')
  if (readsBody && !r.rawBody) add('unsupported_media_type')
  add('validation_failed')
  if (write) add('invalid_idempotency_key')
  add('rate_limited')
  add('internal_error')
  add('service_unavailable')
  for (const code of declared) add(code)
  return new Map([...out].sort(([a], [b]) => a - b))
}
