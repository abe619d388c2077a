// The one error catalogue: every problem the API answers comes from a code in this table.
export interface ErrorSpec {
  status: number
  title: string
}

export const ERRORS = {
  // The Authorization header is missing, malformed, unknown or revoked.
  unauthorized: { status: 401, title: 'Unauthorized' },
  // A svc_test_ key used on the live URL, or a svc_live_ key on the sandbox URL.
  wrong_environment: { status: 401, title: 'Key not valid for this base URL' },
  // The key is valid but lacks the scope the operation requires.
  insufficient_scope: { status: 403, title: 'Insufficient scope' },
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
  // --- workspaces ---
  // inviteWorkspaceMember for an email that is already a member of the workspace.
  member_already_exists: { status: 409, title: 'Member already exists' },
  // Removing or demoting the only remaining owner.
  last_owner: { status: 409, title: 'Last owner' },

  // --- inbox ---
  // A status change the conversation state machine forbids (e.g. resolved → snoozed without reopening).
  invalid_status_transition: { status: 409, title: 'Invalid status transition' },
  // assignConversation (or a member-authored message) names someone who is not an active member of the workspace.
  assignee_not_member: { status: 422, title: 'Not an active member' },
  // A conversation is given a tag name that was never created with createInboxTag.
  unknown_tag: { status: 422, title: 'Unknown tag' },
  // createInboxTag with a name the workspace already has (case-insensitively).
  tag_already_exists: { status: 409, title: 'Tag already exists' },
  // createReplyTemplate with a name (case-insensitively) or shortcut the workspace already has.
  template_already_exists: { status: 409, title: 'Reply template already exists' },
  // sendMessage whose direction, author and private flag disagree (inbound comes from the contact; notes are outbound).
  invalid_message_author: { status: 422, title: 'Invalid message author' },

  // --- webhooks ---
  // A webhook endpoint URL is not absolute http(s), has credentials, or is http on the live base URL.
  webhook_url_invalid: { status: 422, title: 'Invalid webhook URL' },
  // A webhook endpoint URL resolves to a loopback, private, link-local or metadata address.
  webhook_url_forbidden: { status: 422, title: 'Webhook destination not allowed' },
  // event_types names a type that is not in the event catalog.
  webhook_event_type_unknown: { status: 422, title: 'Unknown event type' },
  // Testing or replaying to an endpoint that is disabled or was deleted.
  webhook_endpoint_unavailable: { status: 409, title: 'Webhook endpoint unavailable' },
  // A Playground token that is not 22–64 characters of [A-Za-z0-9_-].
  playground_token_invalid: { status: 404, title: 'Playground inbox not found' },

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

export type ErrorCode = keyof typeof ERRORS

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
    this.status = ERRORS[code].status
    this.headers = extra.headers ?? {}
  }
}

export const notFound = (what: string, id: string) =>
  new AppError('resource_not_found', `No ${what} with id '${id}' exists in this workspace.`)
