import type { FastifyReply, FastifyRequest } from 'fastify'
import type { Static, TSchema } from 'typebox'
import type { Config } from '../../config.js'
import type { Role } from '../auth/roles.js'
import type { ErrorCode } from '../errors.js'
import type { MultipartOptions } from './multipart.js'
import type { WithStatus } from './response-status.js'
import type { EventStream, SseRoute } from './sse.js'
import type { Principal } from '../tenant.js'
import type { Services } from '../services.js'

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'

export interface RouteSchemas {
  params?: TSchema
  querystring?: TSchema
  body?: TSchema
  headers?: TSchema
  /** Success responses only; error responses come from `errors` and the shared set. */
  response: Record<number, TSchema>
}

type In<S extends RouteSchemas, K extends keyof RouteSchemas> = S[K] extends TSchema ? Static<S[K]> : undefined
type Out<S extends RouteSchemas> = { [C in keyof S['response']]: S['response'][C] extends TSchema ? Static<S['response'][C]> : never }[keyof S['response']]
type Reply<S extends RouteSchemas> = Out<S> | WithStatus<Out<S>>

export interface HandlerContext<S extends RouteSchemas, P extends Principal | null> {
  params: In<S, 'params'>
  query: In<S, 'querystring'>
  body: In<S, 'body'>
  principal: P
  services: Services
  request: FastifyRequest
  reply: FastifyReply
}

/** What an SSE route's handler gets besides the usual context (see sse.ts). */
export interface StreamContext {
  /** Send events with `stream.send(event, data)`; stop when `stream.signal` aborts; return when the work is done. */
  stream: EventStream
  /** The request's credential looked up again, as it admits this operation now (a long stream re-checks it), or null. */
  reauthenticate(): Promise<Principal | null>
}
type ContextOf<S extends RouteSchemas, Public extends boolean, Sse> = HandlerContext<S, Public extends true ? Principal | null : Principal> & (Sse extends SseRoute ? StreamContext : unknown)

export interface RouteDefinition<S extends RouteSchemas = RouteSchemas, Public extends boolean = false, Sse extends SseRoute | undefined = undefined> {
  operationId: string
  method: HttpMethod
  /** The spec's path relative to the base URL, `{id}` style. */
  url: string
  /** The module tag (lowercase), also the api-docs folder. */
  module: string
  /** Required scope; the spec names one even for public operations (documentation only there). */
  scope: string
  /**
   * The least role a member needs (dashboard sessions and OAuth tokens a member granted; keys go by scope
   * alone): `member`, `admin` or `owner`. Left out, the default of the scope (kernel/auth/roles.ts): reads
   * and conversation, message and lead writes are members', every other write admins'. docs/api-conventions.md "Roles".
   */
  minRole?: Role
  /** Admitted with any one of these scopes instead of `scope` (the event stream, where each event then needs its own). */
  anyScope?: readonly string[]
  /** Public operations (the Webhook Playground) skip authentication. */
  public?: Public
  summary: string
  description?: string
  schema: S
  /** Error codes this operation raises beyond the shared ones (401, 403, 422, 429, 500). */
  errors?: ErrorCode[]
  /** OpenAPI description of a success response by status; default from the schema's name ("The conversation", "A page of …"). */
  responseDescription?: Partial<Record<number, string>>
  /** Status for the success response; defaults to the first code in `schema.response`. */
  status?: number
  /** Extra Fastify route config (e.g. a stricter rate limit); `max` may read the config (route objects are static). */
  rateLimit?: { max: number | ((config: Config) => number); timeWindowMs: number; groupId: string }
  /** Accept any content type and keep the raw body (Playground captures). */
  rawBody?: boolean
  /**
   * Also accept multipart/form-data (file uploads), read whole and validated against `multipart.schema`;
   * the handler tells the two apart with `request.isMultipart()`. JSON bodies may then be as large as
   * the file limit.
   */
  multipart?: MultipartOptions
  /**
   * A Server-Sent Events operation (`text/event-stream`, sse.ts): the handler gets `stream`, sends events
   * and returns when done; `schema.response[200]` is the schema of one event's data. A POST's
   * Idempotency-Key replays the whole stream once it ended well; resumable with Last-Event-ID. See
   * docs/api-conventions.md "Event streams".
   */
  sse?: Sse
  /**
   * `'in-transaction'`: the operation's whole effect is one `kernel.transaction` (nothing sent out before or
   * after it), so its Idempotency-Key is claimed by that transaction itself instead of by a commit of its own
   * before the handler (kernel/http/idempotency.ts: one commit per request instead of two).
   */
  idempotency?: 'in-transaction'
  /**
   * A file this operation also answers besides its JSON (a recording): the type and when (`?format=`, Accept).
   * OpenAPI lists it on 200 and adds 206 (ranges, kernel/http/send-blob.ts) unless `ranges: false` (a text made
   * per request, e.g. listTerraformResources' HCL).
   */
  media?: { type: string; description: string; ranges?: false }
  /** Set by `aliasRoute`: the operationId this route is a second path of. */
  aliasOf?: string
  /** Returns the response body, or `withStatus(code, body)` when the status is decided while handling (see response-status.ts). */
  handler(ctx: ContextOf<S, Public, Sse>): Promise<Reply<S> | void> | Reply<S> | void
}

export function defineRoute<S extends RouteSchemas, Public extends boolean = false, Sse extends SseRoute | undefined = undefined>(
  def: RouteDefinition<S, Public, Sse>,
): RouteDefinition<S, Public, Sse> {
  return def
}

export type AnyRoute = RouteDefinition<any, any, any>

/**
 * The same operation under a second path family (the spec lists some twice, e.g. `/webhooks/endpoints`
 * and `/webhook-endpoints`): same method, scope, schemas and handler; its own operationId and URL.
 */
export function aliasRoute<S extends RouteSchemas, P extends boolean, Sse extends SseRoute | undefined = undefined>(
  of: RouteDefinition<S, P, Sse>,
  alias: { operationId: string; url: string; summary?: string },
): RouteDefinition<S, P, Sse> {
  return {
    ...of,
    operationId: alias.operationId,
    url: alias.url,
    aliasOf: of.operationId,
    summary: alias.summary ?? `${of.summary} (alias of ${of.method} ${of.url})`,
    description: `${of.description ?? of.summary}\n\nThe same operation as \`${of.operationId}\` (${of.method} ${of.url}).`,
  }
}
