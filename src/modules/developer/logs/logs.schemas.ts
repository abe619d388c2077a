import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Nullable } from '../../../kernel/http/schemas.js'

const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })
const DateTime = Type.String({ format: 'date-time' })

export const STATUS_CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const
export type StatusClass = (typeof STATUS_CLASSES)[number]
export const HTTP_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const
/** The longest usage period, in days (`from`..`to` inclusive). */
export const MAX_USAGE_DAYS = 90

export const ApiLog = Type.Object(
  {
    id: Type.String({ examples: ['alog_01JD0000000000000000000000'] }),
    object: Type.Literal('api_log'),
    request_id: Type.String({ description: 'The X-Request-ID of the request (yours when you sent one, else ours).', examples: ['req_Zk3x9aQb1'] }),
    method: Type.String({ examples: ['POST'] }),
    path: Type.String({ description: 'The URL path as requested, base URL included, without the query string.', examples: ['/v2/inbox/conversations'] }),
    operation_id: Nullable(Type.String({ description: 'null for a path that matched no operation (404 route_not_found, 405).', examples: ['createConversation'] })),
    status: Type.Integer({ examples: [201] }),
    duration_ms: Type.Number({ description: 'From the request’s arrival to the response’s last byte, in milliseconds.', examples: [4.21] }),
    key_id: Nullable(Type.String({ description: 'The API key (or, for OAuth, the grant) the request authenticated with.', examples: ['key_01JD0000000000000000000000'] })),
    oauth_app_id: Nullable(Type.String({ description: 'The OAuth app, when the request carried one of its access tokens.' })),
    ip: Nullable(Type.String({ description: 'The client address as the service saw it.', examples: ['203.0.113.7'] })),
    user_agent: Nullable(Type.String({ description: 'The User-Agent header, cut at 256 characters.', examples: ['svc-node/2.4.0'] })),
    error_code: Nullable(Type.String({ description: 'The problem’s `code` of an answer ≥ 400.', examples: ['validation_failed'] })),
    created_at: DateTime,
  },
  { title: 'ApiLog', description: 'One API request. Bodies, query strings and credentials are never recorded.' },
)
export type ApiLogT = Static<typeof ApiLog>
export const ApiLogList = Page(ApiLog, 'ApiLog')

export const ListApiLogsQuery = Type.Object(
  {
    ...PageQuery,
    status: Type.Optional(Type.Integer({ minimum: 100, maximum: 599, description: 'Exactly this status.' })),
    status_class: Type.Optional(oneOf(STATUS_CLASSES, { description: 'Statuses of one class, e.g. `4xx`.' })),
    method: Type.Optional(oneOf(HTTP_METHODS)),
    operation_id: Type.Optional(Type.String({ pattern: '^[A-Za-z][A-Za-z0-9]{0,99}$', examples: ['sendMessage'] })),
    key_id: Type.Optional(Type.String({ minLength: 1, maxLength: 100 })),
    request_id: Type.Optional(Type.String({ minLength: 1, maxLength: 128 })),
    created_gte: Type.Optional(Type.String({ format: 'date-time', description: 'Requests at or after this time.' })),
    created_lt: Type.Optional(Type.String({ format: 'date-time', description: 'Requests before this time.' })),
  },
  { additionalProperties: false },
)
export type ListApiLogsQueryT = Static<typeof ListApiLogsQuery>

export const ApiUsageQuery = Type.Object(
  {
    from: Type.Optional(Type.String({ format: 'date', description: 'First UTC day (YYYY-MM-DD); default 6 days before `to`.' })),
    to: Type.Optional(Type.String({ format: 'date', description: `Last UTC day (YYYY-MM-DD), inclusive; default today. At most ${MAX_USAGE_DAYS} days in all.` })),
  },
  { additionalProperties: false },
)
export type ApiUsageQueryT = Static<typeof ApiUsageQuery>

const Count = Type.Integer({ minimum: 0 })
const StatusClassCounts = Type.Object({ '1xx': Count, '2xx': Count, '3xx': Count, '4xx': Count, '5xx': Count }, { title: 'ApiUsageStatusClasses' })
const OperationCount = Type.Object({ operation_id: Nullable(Type.String()), requests: Count }, { title: 'ApiUsageOperationCount' })
const KeyCount = Type.Object({ key_id: Nullable(Type.String({ description: 'The API key, or the OAuth app for requests made with its tokens.' })), requests: Count }, { title: 'ApiUsageKeyCount' })

export const ApiUsage = Type.Object(
  {
    object: Type.Literal('api_usage'),
    livemode: Type.Boolean(),
    from: Type.String({ format: 'date' }),
    to: Type.String({ format: 'date' }),
    requests: Count,
    status_classes: StatusClassCounts,
    days: Type.Array(
      Type.Object(
        {
          date: Type.String({ format: 'date' }),
          requests: Count,
          status_classes: StatusClassCounts,
          operations: Type.Array(OperationCount, { description: 'Most requests first.' }),
          keys: Type.Array(KeyCount, { description: 'Most requests first.' }),
        },
        { title: 'ApiUsageDay' },
      ),
      { description: 'Every day of the period, oldest first, days without requests included.' },
    ),
    operations: Type.Array(
      Type.Object(
        {
          operation_id: Nullable(Type.String()),
          requests: Count,
          errors: Type.Integer({ minimum: 0, description: 'Answers ≥ 400.' }),
          p50_ms: Type.Number(),
          p95_ms: Type.Number(),
        },
        { title: 'ApiUsageOperation' },
      ),
      {
        description:
          'Per operation over the period, most requests first. Latency percentiles come from per-day histograms with 5 %-wide buckets: each is the upper edge of the bucket holding it, at most 5 % above the exact value.',
      },
    ),
  },
  { title: 'ApiUsage', description: 'API requests of this workspace and mode per UTC day by operation, status class and key, with latency per operation.' },
)
export type ApiUsageT = Static<typeof ApiUsage>
