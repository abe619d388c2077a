import { Type } from 'typebox'

export const ApiRoot = Type.Object(
  {
    object: Type.Literal('api_root'),
    name: Type.String(),
    api_version: Type.String(),
    livemode: Type.Boolean(),
    links: Type.Object({
      live: Type.String({ format: 'uri' }),
      sandbox: Type.String({ format: 'uri' }),
      openapi: Type.String({ format: 'uri' }),
      api_docs: Type.String({ format: 'uri' }),
      health: Type.String({ format: 'uri' }),
    }),
  },
  { title: 'ApiRoot' },
)

const Status = Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down'), Type.Literal('not_available')])
const Component = Type.Object(
  { status: Status, detail: Type.Optional(Type.String()), latency_ms: Type.Optional(Type.Number()) },
  { additionalProperties: true, title: 'HealthCheck', description: 'One checked part; modules may add their own fields.' },
)

export const Health = Type.Object(
  {
    object: Type.Literal('health'),
    status: Type.Union([Type.Literal('ok'), Type.Literal('degraded'), Type.Literal('down')]),
    api_version: Type.String(),
    checked_at: Type.String({ format: 'date-time' }),
    database: Component,
    job_queue: Component,
    dependencies: Type.Record(Type.String(), Component, {
      description:
        'Outside services the API keeps working without, degraded: `redis` (REDIS_URL, the shared rate-limit counters; while down each process counts its own). Empty when none is configured.',
    }),
    modules: Type.Object({
      inbox: Component,
      bots: Component,
      voice: Component,
      knowledge: Component,
      webhooks: Component,
      compliance: Component,
    }),
  },
  { title: 'HealthReport' },
)
