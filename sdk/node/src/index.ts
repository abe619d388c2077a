// @svc/client: the official Node client of the Conversational Automation Service API.

export { Svc } from './client.js'
export { Svc as default } from './client.js'
export { BaseClient, APIResource, type ClientOptions, type RequestOptions, type OperationSpec, type HttpMethod } from './core.js'
export { ApiPromise, type ResponseInfo, type WithResponse } from './api-promise.js'
export { Page, PagePromise, type ListBody } from './pagination.js'
export { EventStream, StreamPromise, parseSSE, type ServerSentEvent } from './sse.js'
export {
  Webhook,
  WebhookHelpers,
  constructEvent,
  constructEvent as verifyWebhook,
  signWebhook,
  DEFAULT_TOLERANCE_SECONDS,
  type VerifyOptions,
  type SignOptions,
  type WebhookHeaders,
  type WebhookPayload,
} from './webhooks.js'
export {
  SvcError,
  APIError,
  InvalidRequestError,
  ValidationError,
  AuthenticationError,
  PermissionError,
  NotFoundError,
  ConflictError,
  RateLimitError,
  ServerError,
  ConnectionError,
  TimeoutError,
  SignatureVerificationError,
  type FieldError,
  type ProblemDetails,
} from './errors.js'
export { VERSION, API_VERSION, DEFAULT_BASE_URL } from './generated/version.js'
export type * from './generated/models.js'
export type * from './generated/params.js'
