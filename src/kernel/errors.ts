// The kernel's generic error codes. Each module declares its own in `<module>.errors.ts` with
// `defineErrors()`; together they are the catalogue every problem the API answers comes from.
export interface ErrorSpec {
  status: number
  title: string
}

const KERNEL_ERRORS = {
  // The Authorization header is missing, malformed, unknown or revoked.
  unauthorized: { status: 401, title: 'Unauthorized' },
  // A svc_test_ key used on the live URL, or a svc_live_ key on the sandbox URL.
  wrong_environment: { status: 401, title: 'Key not valid for this base URL' },
  // The key is valid but lacks the scope the operation requires.
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
  // A member (dashboard session, or an OAuth token they granted) whose role is below the operation's `minRole`,
  // or whose role does not allow the change to that member (workspaces/member-roles.ts).
  insufficient_role: { status: 403, title: 'Insufficient role' },
  // The caller may not use this endpoint from where it is (e.g. GET /metrics from a remote address without a token).
  forbidden: { status: 403, title: 'Forbidden' },
  // No route matches the path.
  route_not_found: { status: 404, title: 'Not found' },
  // The resource does not exist in this workspace and mode (also for other workspaces' resources).
  resource_not_found: { status: 404, title: 'Resource not found' },
  // The path exists but not with this method.
  method_not_allowed: { status: 405, title: 'Method not allowed' },
  // The request body is not valid JSON.
  malformed_json: { status: 400, title: 'Malformed JSON' },
  // The request could not be read (bad header, bad encoding).
  bad_request: { status: 400, title: 'Bad request' },
  // A path segment is longer than the router accepts (path parameters are at most 100 characters).
  uri_too_long: { status: 414, title: 'URI too long' },
  // The request's header section is larger than the server accepts.
  request_header_fields_too_large: { status: 431, title: 'Request header fields too large' },
  // The Content-Type is not application/json for an operation that takes JSON.
  unsupported_media_type: { status: 415, title: 'Unsupported media type' },
  // The body exceeds BODY_LIMIT_BYTES.
  payload_too_large: { status: 413, title: 'Payload too large' },
  // Parameters or body fail the operation's schema.
  validation_failed: { status: 422, title: 'Validation failed' },
  // An id in the request body names nothing in this workspace and mode (a missing path id is a 404); `errors[].pointer` names the field.
  invalid_reference: { status: 422, title: 'Invalid reference' },
  // The cursor is malformed or belongs to another list.
  invalid_cursor: { status: 422, title: 'Invalid cursor' },
  // The Idempotency-Key header is empty or longer than 255 characters.
  invalid_idempotency_key: { status: 422, title: 'Invalid Idempotency-Key' },
  // The Idempotency-Key was used before with a different method, path or body.
  idempotency_key_reused: { status: 409, title: 'Idempotency-Key reused with a different payload' },
  // A request with this Idempotency-Key is still being processed.
  idempotency_request_in_progress: { status: 409, title: 'Request with this Idempotency-Key in progress' },
  // The request with this Idempotency-Key took effect, but its process stopped before the response was stored.
  idempotency_outcome_unavailable: { status: 409, title: 'Idempotent request took effect; response unavailable' },
  // The request conflicts with the current state of the resource (unique name, invalid transition).
  conflict: { status: 409, title: 'Conflict' },
  // A business rule rejected otherwise well-formed input.
  unprocessable: { status: 422, title: 'Unprocessable request' },
  // The key (or the replay budget) exceeded its rate limit.
  rate_limited: { status: 429, title: 'Too many requests' },
  // --- kernel seams ---
  // The AI provider answered with an error.
  ai_provider_error: { status: 502, title: 'AI provider error' },
  // The AI provider could not be reached.
  ai_provider_unavailable: { status: 503, title: 'AI provider unavailable' },
  // The AI provider did not answer within AI_TIMEOUT_MS.
  ai_provider_timeout: { status: 504, title: 'AI provider timed out' },
  // The database cannot be reached.
  service_unavailable: { status: 503, title: 'Service unavailable' },
  // Anything unexpected; details go to the log, never to the client.
  internal_error: { status: 500, title: 'Internal server error' },
} as const satisfies Record<string, ErrorSpec>

/**
 * Every code the API can answer. Modules add theirs by declaration merging, next to `defineErrors`:
 * `declare module '…/kernel/errors.js' { interface ErrorCodes extends Record<keyof typeof MY_ERRORS, ErrorSpec> {} }`.
 */
export interface ErrorCodes extends Record<keyof typeof KERNEL_ERRORS, ErrorSpec> {}
export type ErrorCode = keyof ErrorCodes & string

interface Registered extends ErrorSpec {
  module: string
}
const catalogue = new Map<string, Registered>(Object.entries(KERNEL_ERRORS).map(([code, spec]) => [code, { ...spec, module: 'kernel' }]))

/** A module's error catalogue, registered when the module's errors file is loaded. Codes are global: a clash throws. */
export function defineErrors<const T extends Record<string, ErrorSpec>>(module: string, errors: T): T {
  for (const [code, spec] of Object.entries(errors)) {
    const known = catalogue.get(code)
    if (known && known.module !== module) throw new Error(`error code ${code} of ${module} is already defined by ${known.module}`)
    catalogue.set(code, { ...spec, module })
  }
  return errors
}

const UNKNOWN: Registered = { status: 500, title: 'Internal server error', module: 'kernel' }
export const errorSpec = (code: string): Registered => catalogue.get(code) ?? UNKNOWN
/** Every registered code, for the reference pages. */
export const allErrors = (): [string, Registered][] => [...catalogue].sort(([a], [b]) => a.localeCompare(b))

export interface FieldError {
  pointer: string
  detail: string
}

export class AppError extends Error {
  readonly status: number
  readonly headers: Record<string, string>
  constructor(
    readonly code: ErrorCode,
    readonly detail: string,
    readonly extra: { errors?: FieldError[]; headers?: Record<string, string>; [k: string]: unknown } = {},
  ) {
    super(detail)
    this.status = errorSpec(code).status
    this.headers = extra.headers ?? {}
  }
}

export const notFound = (what: string, id: string) => new AppError('resource_not_found', `No ${what} with id '${id}' exists in this workspace.`)
