import type { EventType } from '../events/events.js'
import type { AnyRoute } from './define-route.js'
import { HEADERS, PARAMETERS } from './openapi-components.js'
import { parameters, requestBody, responses } from './openapi-operations.js'
import { SchemaRegistry, type Json } from './openapi-registry.js'
import { webhooks, type EventDelivery } from './openapi-webhooks.js'
import { Problem } from './problem.js'

/**
 * The served OpenAPI 3.1 document, finalised once from what @fastify/swagger produces (info, servers,
 * security schemes, and per operation its operationId, summary, description, tags, security and
 * `x-required-scope`, `x-min-role`) plus the route table and the event catalog, so that client generators
 * (openapi-typescript, openapi-fetch, …) get:
 *
 * - every named schema (a TypeBox schema with `$id` or `title`; otherwise `<OperationId>Body`/`Response`)
 *   as a `components.schemas` entry referenced by `$ref`, and no `$id` left anywhere (no collisions);
 * - `enum` instead of `anyOf` lists of one-value `const`s, `type: [T, "null"]` for simple nullables,
 *   `additionalProperties` instead of the catch-all `patternProperties` of `Type.Record`;
 * - parameters from the route's TypeBox schemas, `Idempotency-Key` (a `components.parameters` entry) on
 *   every POST, PATCH, PUT and DELETE (event streams included), response headers as `components.headers` references;
 * - `requestBody.required: false` where every field is optional (the server accepts a missing body there),
 *   any content type for raw-body operations (the Playground);
 * - per operation only the error statuses that can happen (see `problemStatuses`), each described with
 *   the codes it may carry;
 * - an OpenAPI 3.1 `webhooks` section: one POST per event type of the catalog, with the envelope, the
 *   payload schema and example, and the signature headers of docs/webhooks.md.
 *
 * The parts: openapi-registry.ts (schemas), openapi-operations.ts and openapi-components.ts (operations),
 * openapi-webhooks.ts (events), problem-statuses.ts (error statuses per operation).
 */

type HttpMethodLower = 'get' | 'post' | 'put' | 'patch' | 'delete'

export interface OpenApiSources {
  /** What @fastify/swagger produced (`app.swagger()`): info, servers, security schemes, operations. */
  base: Json
  routes: AnyRoute[]
  /** The event catalog (`kernel.events.catalog()`). */
  events: EventType[]
  /** The delivering module's contract; without one the document has no `webhooks` section. */
  delivery?: EventDelivery
}

export function finaliseOpenApi({ base, routes, events, delivery }: OpenApiSources): Json {
  const registry = new SchemaRegistry()
  registry.hoist('Problem', Problem as unknown as Json)
  const byId = new Map(routes.map((r) => [r.operationId, r]))
  const paths: Record<string, Record<string, Json>> = {}
  const seen = new Set<string>()
  for (const [path, methods] of Object.entries((base.paths ?? {}) as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(methods)) {
      const r = typeof op.operationId === 'string' ? byId.get(op.operationId) : undefined
      if (!r || r.method.toLowerCase() !== method) continue
      seen.add(r.operationId)
      const body = requestBody(registry, r)
      ;(paths[path] ??= {})[method as HttpMethodLower] = {
        operationId: r.operationId,
        summary: op.summary ?? r.summary,
        description: op.description,
        tags: op.tags,
        security: op.security,
        'x-required-scope': op['x-required-scope'],
        ...(op['x-min-role'] ? { 'x-min-role': op['x-min-role'] } : {}),
        parameters: parameters(registry, r),
        ...(body ? { requestBody: body } : {}),
        responses: responses(registry, r),
      }
    }
  }
  const missing = routes.filter((r) => !seen.has(r.operationId)).map((r) => r.operationId)
  if (missing.length > 0) throw new Error(`OpenAPI: operations missing from the generated document: ${missing.join(', ')}`)
  for (const methods of Object.values(paths)) {
    for (const op of Object.values(methods)) if ((op.parameters as unknown[]).length === 0) delete op.parameters
  }

  const used = new Set(
    Object.values(paths).flatMap((m) =>
      Object.values(m).flatMap((op) =>
        ((op.parameters ?? []) as Json[]).map((p) =>
          String(p.$ref ?? '')
            .split('/')
            .pop(),
        ),
      ),
    ),
  )
  const hooks = delivery ? webhooks(registry, events, delivery) : null
  const modules = [...new Set([...routes.map((r) => r.module), ...events.map((e) => e.module)])].sort()
  const components = (base.components ?? {}) as Json
  const sortedSchemas = Object.fromEntries(Object.entries(registry.schemas).sort(([a], [b]) => a.localeCompare(b)))
  return {
    openapi: base.openapi ?? '3.1.0',
    info: base.info,
    servers: base.servers,
    tags: modules.map((m) => ({
      name: m,
      description: `${events.some((e) => e.module === m) ? 'Operations and webhook events' : 'Operations'} of the ${m} module (docs/${m}.md).`,
    })),
    paths,
    ...(hooks ? { webhooks: hooks } : {}),
    components: {
      securitySchemes: components.securitySchemes,
      schemas: sortedSchemas,
      // Only the shared parameters some operation uses (Redocly's no-unused-components).
      parameters: { ...Object.fromEntries(Object.entries(PARAMETERS).filter(([name]) => used.has(name))), ...(delivery?.headers ?? {}) },
      requestBodies: Object.fromEntries(Object.entries(registry.requestBodies).sort(([a], [b]) => a.localeCompare(b))),
      headers: HEADERS,
    },
  }
}

/**
 * The document, finalised on first use and cached (the route table and the event catalog do not
 * change once the server is built).
 */
export function openApiDocument(sources: () => OpenApiSources): () => Json {
  let doc: Json | null = null
  return () => (doc ??= finaliseOpenApi(sources()))
}
