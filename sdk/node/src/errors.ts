// The errors the client throws: SvcError is the base of all of them; APIError (and its subclasses by
// status) carries the API's problem details (RFC 9457); ConnectionError / TimeoutError stand for network
// failures; SignatureVerificationError for webhooks that do not verify.

/** One field error of a problem: where (a JSON pointer into the request) and what. */
export interface FieldError {
  pointer: string
  detail: string
  [key: string]: unknown
}

/** A problem body (`application/problem+json`) as the API sends it. */
export interface ProblemDetails {
  type?: string
  title?: string
  status?: number
  detail?: string
  instance?: string
  code?: string
  request_id?: string
  errors?: FieldError[]
  [key: string]: unknown
}

/** The base of every error this library throws. */
export class SvcError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options)
    this.name = new.target.name
  }
}

export interface APIErrorInit {
  status: number
  headers: Headers
  /** The raw response body (text). */
  body: string
  message?: string
}

/** The API answered with an error status (4xx, 5xx). */
export class APIError extends SvcError {
  /** The HTTP status. */
  readonly status: number
  /** The problem's machine-readable code (`resource_not_found`, `validation_failed`, …). */
  readonly code: string | null
  readonly title: string | null
  readonly detail: string | null
  /** The problem type URI. */
  readonly type: string | null
  readonly instance: string | null
  /** Field errors (`{ pointer, detail }`), empty when the problem has none. */
  readonly errors: FieldError[]
  /** The request id: the problem's `request_id`, else the `X-Request-ID` header. */
  readonly requestId: string | null
  readonly headers: Headers
  /** The raw body as text. */
  readonly body: string
  /** The parsed problem body, when it was JSON. */
  readonly problem: ProblemDetails | null

  constructor(init: APIErrorInit) {
    let problem: ProblemDetails | null = null
    try {
      const parsed = init.body ? JSON.parse(init.body) : null
      if (parsed && typeof parsed === 'object' && !Array.isArray(parsed)) problem = parsed as ProblemDetails
    } catch {
      problem = null
    }
    const code = typeof problem?.code === 'string' ? problem.code : null
    const detail = typeof problem?.detail === 'string' ? problem.detail : null
    const title = typeof problem?.title === 'string' ? problem.title : null
    super(init.message ?? `${init.status}${code ? ` ${code}` : ''}: ${detail ?? title ?? (init.body.slice(0, 200) || 'no body')}`)
    this.status = init.status
    this.code = code
    this.title = title
    this.detail = detail
    this.type = typeof problem?.type === 'string' ? problem.type : null
    this.instance = typeof problem?.instance === 'string' ? problem.instance : null
    this.errors = Array.isArray(problem?.errors) ? problem.errors : []
    this.requestId = (typeof problem?.request_id === 'string' ? problem.request_id : null) ?? init.headers.get('x-request-id')
    this.headers = init.headers
    this.body = init.body
    this.problem = problem
  }

  /** The error class for a status: 400/other 4xx InvalidRequest, 422 Validation, 401, 403, 404, 409, 429, 5xx Server. */
  static from(init: APIErrorInit): APIError {
    const s = init.status
    if (s === 422) return new ValidationError(init)
    if (s === 401) return new AuthenticationError(init)
    if (s === 403) return new PermissionError(init)
    if (s === 404) return new NotFoundError(init)
    if (s === 409) return new ConflictError(init)
    if (s === 429) return new RateLimitError(init)
    if (s >= 500) return new ServerError(init)
    if (s >= 400) return new InvalidRequestError(init)
    return new APIError(init)
  }
}

/** 400 (and any other 4xx without a class of its own): the request is wrong. */
export class InvalidRequestError extends APIError {}
/** 422: the body or query failed validation; `errors` lists the fields. */
export class ValidationError extends InvalidRequestError {}
/** 401: no key, a malformed, unknown or revoked key. */
export class AuthenticationError extends APIError {}
/** 403: the key lacks the scope, or the workspace may not do this. */
export class PermissionError extends APIError {}
/** 404: no such resource (in this workspace and mode). */
export class NotFoundError extends APIError {}
/** 409: a conflict (state, or an `Idempotency-Key` still in use by a request in flight). */
export class ConflictError extends APIError {}
/** 429: rate limited; `retryAfter` is the Retry-After header in seconds, when given. */
export class RateLimitError extends APIError {
  get retryAfter(): number | null {
    const v = this.headers.get('retry-after')
    return v !== null && /^\d+(\.\d+)?$/.test(v.trim()) ? Number(v) : null
  }
}
/** 5xx: the API failed. */
export class ServerError extends APIError {}

/** No answer: the connection failed or was cut. */
export class ConnectionError extends SvcError {}
/** No answer within the timeout. */
export class TimeoutError extends ConnectionError {}

/** A webhook whose signature or timestamp does not verify. */
export class SignatureVerificationError extends SvcError {}
