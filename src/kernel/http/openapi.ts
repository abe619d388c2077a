import { STATUS_CODES } from 'node:http'
import type { TSchema } from 'typebox'
import { errorSpec } from '../errors.js'
import { API_VERSION, type EventType } from '../events/events.js'
import type { AnyRoute } from './define-route.js'
import { documentedForm } from './multipart.js'
import { Problem } from './problem.js'
import { ERROR_EVENT, SSE_DEFAULTS } from './sse.js'

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
 */

type Json = Record<string, unknown>
type HttpMethodLower = 'get' | 'post' | 'put' | 'patch' | 'delete'

const WRITE_METHODS = new Set(['POST', 'PATCH', 'PUT', 'DELETE'])
const BODY_METHODS = new Set(['POST', 'PATCH', 'PUT'])

const ref = (kind: 'schemas' | 'parameters' | 'headers' | 'requestBodies', name: string) => ({ $ref: `#/components/${kind}/${name}` })

// ---------------------------------------------------------------------------------------------------
// Error statuses per operation (also used by server.ts for the route's response schemas)
// ---------------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------------
// Schemas: TypeBox → OpenAPI 3.1 (JSON Schema 2020-12) with named components
// ---------------------------------------------------------------------------------------------------

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v)

/** The component name of a schema: its `$id` (last segment of a URI) or its `title`. */
function schemaName(schema: unknown): string | null {
  if (!isObject(schema)) return null
  const id = typeof schema.$id === 'string' ? schema.$id.replace(/#.*$/, '').split(/[/:]/).pop() : undefined
  const name = id || (typeof schema.title === 'string' ? schema.title : undefined)
  if (!name) return null
  if (!/^[A-Za-z0-9._-]+$/.test(name)) throw new Error(`OpenAPI: schema name ${JSON.stringify(name)} is not a valid component name`)
  return name
}

const SUBSCHEMA_MAPS = ['properties', 'patternProperties', '$defs', 'dependentSchemas'] as const
const SUBSCHEMA_LISTS = ['anyOf', 'oneOf', 'allOf', 'prefixItems'] as const
const SUBSCHEMA_ONE = ['items', 'additionalProperties', 'not', 'contains', 'propertyNames', 'if', 'then', 'else', 'unevaluatedProperties', 'unevaluatedItems'] as const
const PRIMITIVE = new Set(['string', 'number', 'integer', 'boolean'])

/** A one-value branch `{ type?, const }` (TypeBox Literal) or `{ type?, enum: [v] }`; its value. */
function singleValue(s: unknown): { type?: string; value: unknown } | null {
  if (!isObject(s)) return null
  const keys = Object.keys(s).filter((k) => k !== 'type')
  if (keys.length !== 1) return null
  if (s.type !== undefined && typeof s.type !== 'string') return null
  if ('const' in s) return { type: s.type as string | undefined, value: s.const }
  if (Array.isArray(s.enum) && s.enum.length === 1) return { type: s.type as string | undefined, value: s.enum[0] }
  return null
}

/** Whether a schema gives a property (its own or a nested object's) a `default`. */
function hasPropertyDefaults(schema: unknown): boolean {
  if (!isObject(schema)) return false
  if (isObject(schema.properties) && Object.values(schema.properties).some((p) => isObject(p) && 'default' in p)) return true
  for (const k of SUBSCHEMA_MAPS) if (isObject(schema[k]) && Object.values(schema[k]).some(hasPropertyDefaults)) return true
  for (const k of SUBSCHEMA_LISTS) if (Array.isArray(schema[k]) && (schema[k] as unknown[]).some(hasPropertyDefaults)) return true
  return SUBSCHEMA_ONE.some((k) => hasPropertyDefaults(schema[k]))
}

export class SchemaRegistry {
  readonly schemas: Record<string, Json> = {}
  readonly requestBodies: Record<string, Json> = {}
  private readonly canonical = new Map<string, string>()
  private readonly pending = new Set<string>()

  /** A schema for use anywhere in the document: named schemas become `$ref`s to their component. */
  use(schema: unknown, fallbackName?: string): Json {
    const name = schemaName(schema) ?? fallbackName
    if (name) return this.hoist(name, schema as Json)
    return this.convert(schema as Json)
  }

  /** Registers a schema component under `name` (a different schema under the same name is an error). */
  hoist(name: string, schema: Json): Json {
    if (this.pending.has(name)) return ref('schemas', name) // recursive use while converting itself
    this.pending.add(name)
    const converted = this.convert(schema, { root: true })
    this.pending.delete(name)
    this.register('schemas', name, converted)
    return ref('schemas', name)
  }

  /**
   * A named request body: a `components.requestBodies` entry holding its schema. A body's schema (and a
   * named part of it with property defaults) stays inside the request body rather than in
   * `components.schemas`: generators such as openapi-typescript read a property with a `default` as always
   * present in a schema component (true of responses), but as optional under a request body.
   */
  requestBody(name: string, body: Json, schema: Json, form?: Json): Json {
    const content: Json = { 'application/json': { schema: this.convert(schema, { root: true, input: true }) } }
    if (form) content['multipart/form-data'] = { schema: this.convert(documentedForm(form) as Json, { root: true, input: true }) }
    const converted = { ...body, content }
    this.register('requestBodies', name, converted)
    return ref('requestBodies', name)
  }

  private register(kind: 'schemas' | 'requestBodies', name: string, value: Json): void {
    const text = JSON.stringify(value)
    const key = `${kind}/${name}`
    const known = this.canonical.get(key)
    if (known !== undefined && known !== text) {
      throw new Error(`OpenAPI: two different ${kind} are named ${name}; give one of them another $id/title`)
    }
    this.canonical.set(key, text)
    this[kind][name] = value
  }

  /** A deep copy in OpenAPI 3.1 form; named subschemas are hoisted (the root itself is not when `root`). */
  convert(schema: Json, opts: { root?: boolean; input?: boolean } = {}): Json {
    if (!isObject(schema)) return schema
    const input = opts.input ?? false
    if (!opts.root) {
      const name = schemaName(schema)
      if (name && !(input && hasPropertyDefaults(schema))) return this.hoist(name, schema)
    }
    const sub = (s: unknown) => this.convert(s as Json, { input })
    const out: Json = {}
    for (const [k, v] of Object.entries(schema)) {
      if (k === '$id' || k === '$schema') continue
      if ((SUBSCHEMA_MAPS as readonly string[]).includes(k) && isObject(v)) {
        out[k] = Object.fromEntries(Object.entries(v).map(([p, s]) => [p, sub(s)]))
      } else if ((SUBSCHEMA_LISTS as readonly string[]).includes(k) && Array.isArray(v)) {
        out[k] = v.map(sub)
      } else if ((SUBSCHEMA_ONE as readonly string[]).includes(k) && isObject(v)) {
        out[k] = sub(v)
      } else {
        out[k] = structuredClone(v)
      }
    }
    return simplify(out)
  }
}

/** Generator-friendly equivalents; each rewrite validates exactly the same values. */
function simplify(s: Json): Json {
  // const → a one-value enum (TypeBox Literal), the form every generator reads.
  if ('const' in s && !('enum' in s)) {
    const { const: value, ...rest } = s
    s = { ...rest, enum: [value] }
  }
  // Type.Record(Type.String(), X): the catch-all pattern is additionalProperties.
  if (isObject(s.patternProperties) && !s.properties && s.additionalProperties === undefined) {
    const entries = Object.entries(s.patternProperties)
    if (entries.length === 1 && (entries[0][0] === '^.*$' || entries[0][0] === '^(.*)$')) {
      const { patternProperties: _drop, ...rest } = s
      s = { ...rest, additionalProperties: entries[0][1] }
    }
  }
  if (Array.isArray(s.anyOf)) {
    const branches = s.anyOf as Json[]
    const { anyOf: _drop, ...rest } = s
    // anyOf of one-value branches of one type → enum.
    const singles = branches.map(singleValue)
    if (singles.every((x) => x !== null)) {
      const types = new Set(singles.map((x) => x!.type ?? typeof x!.value))
      if (types.size === 1) {
        const type = singles[0]!.type
        return { ...(type ? { type } : {}), enum: singles.map((x) => x!.value), ...rest }
      }
    }
    // anyOf [simple T, null] → type: [T, "null"] (an enum gains null).
    if (branches.length === 2) {
      const nullIndex = branches.findIndex((b) => isObject(b) && b.type === 'null' && Object.keys(b).length === 1)
      const other = branches[1 - nullIndex]
      if (nullIndex >= 0 && isObject(other) && typeof other.type === 'string' && PRIMITIVE.has(other.type) && !('$ref' in other)) {
        const merged: Json = { ...other, type: [other.type, 'null'] }
        if (Array.isArray(other.enum)) merged.enum = [...other.enum, null]
        for (const [k, v] of Object.entries(rest)) merged[k] = v
        return merged
      }
    }
  }
  return s
}

// ---------------------------------------------------------------------------------------------------
// Words for descriptions
// ---------------------------------------------------------------------------------------------------

const ACRONYMS: Record<string, string> = { api: 'API', ai: 'AI', id: 'id', url: 'URL' }
const words = (name: string): string =>
  name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .split(/[\s_.-]+/)
    .map((w) => ACRONYMS[w.toLowerCase()] ?? w.toLowerCase())
    .join(' ')
const plural = (phrase: string): string =>
  phrase.replace(/(\w+)$/, (w) => (/[^aeiou]y$/.test(w) ? `${w.slice(0, -1)}ies` : /(s|x|ch|sh)$/.test(w) ? `${w}es` : `${w}s`))
export const pascal = (s: string): string =>
  s
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('')
const camel = (s: string): string => {
  const p = pascal(s)
  return p[0].toLowerCase() + p.slice(1)
}

function isPage(schema: unknown): boolean {
  return isObject(schema) && isObject(schema.properties) && isObject(schema.properties.object) && schema.properties.object.const === 'list' && 'data' in schema.properties
}

function successDescription(r: AnyRoute, status: number, schema: TSchema): string {
  const custom = r.responseDescription?.[status]
  if (custom) return custom
  const name = schemaName(schema)
  let what: string
  if (!name) what = 'the result'
  else if (isPage(schema)) what = `a page of ${plural(words(name.replace(/List$/, '')))}`
  else what = `the ${words(name)}`
  if (status === 201) what = name && !isPage(schema) ? `the created ${words(name)}` : what
  if (status === 202) return `Accepted: ${what}`
  if (status >= 300) return `${STATUS_CODES[status]}: ${what}`
  return what[0].toUpperCase() + what.slice(1)
}

// ---------------------------------------------------------------------------------------------------
// The shared components: parameters and headers
// ---------------------------------------------------------------------------------------------------

const PARAMETERS: Record<string, Json> = {
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

const HEADERS: Record<string, Json> = {
  XRequestId: {
    description: 'The request id: the client\'s own X-Request-ID when it is ≤ 128 characters of [A-Za-z0-9._:-], else a generated `req_…`; also `request_id` in problems.',
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

function responseHeaders(r: AnyRoute, status: number): Json {
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

// ---------------------------------------------------------------------------------------------------
// Operations
// ---------------------------------------------------------------------------------------------------

function parameters(registry: SchemaRegistry, r: AnyRoute): Json[] {
  const out: Json[] = []
  const from = (schema: TSchema | undefined, where: 'path' | 'query' | 'header') => {
    if (!isObject(schema) || !isObject(schema.properties)) return
    const required = new Set(Array.isArray(schema.required) ? (schema.required as string[]) : [])
    for (const [name, prop] of Object.entries(schema.properties as Record<string, Json>)) {
      const { description, ...rest } = prop
      const named = schemaName(prop)
      out.push({
        name,
        in: where,
        required: where === 'path' || required.has(name),
        ...(typeof description === 'string' && !named ? { description } : {}),
        schema: named ? registry.use(prop) : registry.convert(rest),
      })
    }
  }
  from(r.schema.params, 'path')
  from(r.schema.querystring, 'query')
  from(r.schema.headers, 'header')
  if (WRITE_METHODS.has(r.method)) out.push(ref('parameters', 'IdempotencyKey'))
  if (r.sse && (r.sse === true || !r.sse.ownIds)) out.push(ref('parameters', 'LastEventId'))
  else if (r.sse)
    out.push({
      name: 'Last-Event-ID',
      in: 'header',
      required: false,
      description:
        'Resumes the stream after the event with this id (the `id` of the last event received; this operation names ids after ' +
        'what it stores, see its description). It starts a new stream from there, on any node.',
      schema: { type: 'string', maxLength: 128 },
    })
  return out
}

function requestBody(registry: SchemaRegistry, r: AnyRoute): Json | undefined {
  if (r.rawBody) {
    if (!BODY_METHODS.has(r.method)) return undefined
    return {
      required: false,
      description: 'Any content type and any bytes (or none): recorded as received (UTF-8 text, or base64 when binary).',
      content: { '*/*': { schema: { description: 'Any bytes.' } } },
    }
  }
  const body = r.schema.body as Json | undefined
  if (!body) return undefined
  const required = (Array.isArray(body.required) && body.required.length > 0) || (typeof body.minProperties === 'number' && body.minProperties > 0) || body.type !== 'object'
  const description = typeof body.description === 'string' ? body.description : required ? undefined : 'Every field is optional: the body may be omitted.'
  const form = r.multipart ? (r.multipart.schema as unknown as Json) : undefined
  return registry.requestBody(schemaName(body) ?? `${pascal(r.operationId)}Body`, { ...(description ? { description } : {}), required }, body, form)
}

/** An event stream's answers: 200 `text/event-stream` (each event's data: the route's schema, or a problem for `error`) and 204. */
function streamResponses(registry: SchemaRegistry, r: AnyRoute, out: Record<string, Json>): void {
  const opts = r.sse === true ? {} : (r.sse as Exclude<AnyRoute['sse'], true | undefined>)
  const schema = (r.schema.response as Record<string, TSchema>)[200]
  const names = Object.entries(opts.events ?? {}).map(([name, what]) => `\`${name}\`: ${String(what)}`)
  const heartbeat = typeof opts.heartbeatMs === 'number' ? opts.heartbeatMs : SSE_DEFAULTS.heartbeatMs
  const ids = opts.ownIds
    ? 'Events that can be resumed from have an `id` this operation names (see its description; resume with `Last-Event-ID` on any node)'
    : 'Every event has an `id` (`<stream id>:<n>`, to resume with `Last-Event-ID`)'
  const description =
    `${r.responseDescription?.[200] ?? 'A stream of Server-Sent Events'} (\`text/event-stream\`). ${ids}, an \`event\` name and one line of JSON \`data\`. Events: ` +
    [...names, `\`${ERROR_EVENT}\`: the work failed after the stream started; the data is a problem (RFC 9457) and the stream ends`].join('; ') +
    `. A \`: ping\` comment is sent every ${heartbeat / 1000} s; the response ends when the work is done. See docs/api-conventions.md "Event streams".`
  out['200'] = {
    description,
    headers: responseHeaders(r, 200),
    content: { 'text/event-stream': { schema: { description: "The `data` of one event: JSON, one line.", anyOf: [registry.use(schema, `${pascal(r.operationId)}Event`), ref('schemas', 'Problem')] } } },
  }
  if (opts.ownIds) return
  // Only a resume answers 204, and a resume skips Idempotency-Key: never a replay.
  const { 'Idempotent-Replayed': _never, ...headers } = responseHeaders(r, 204)
  out['204'] = {
    description: 'A resume (`Last-Event-ID`) of a stream that has ended, with no event left to deliver (EventSource clients stop reconnecting).',
    headers,
  }
}

function responses(registry: SchemaRegistry, r: AnyRoute): Json {
  const out: Record<string, Json> = {}
  if (r.sse) streamResponses(registry, r, out)
  for (const [code, schema] of Object.entries(r.sse ? {} : (r.schema.response as Record<string, TSchema>))) {
    const status = Number(code)
    out[code] = {
      description: successDescription(r, status, schema),
      headers: responseHeaders(r, status),
      content: { 'application/json': { schema: registry.use(schema, `${pascal(r.operationId)}Response${status === 200 ? '' : status}`) } },
    }
  }
  if (r.media) {
    // A file the operation also answers (by Accept or query): whole (200) or, unless `ranges: false`, one byte range (206).
    const binary = { schema: { type: 'string', contentMediaType: r.media.type } }
    const ok = out['200'] as { content: Json; description: string }
    ok.content[r.media.type] = binary
    ok.description = `${ok.description}; or the file itself (${r.media.type}) — ${r.media.description}`
    if (r.media.ranges !== false) out['206'] = {
      description: `Partial content: the byte range asked for with \`Range\` (\`Content-Range\` says which)`,
      headers: { 'Content-Range': { schema: { type: 'string' }, description: 'bytes start-end/size' }, ...(responseHeaders(r, 206) as Json) },
      content: { [r.media.type]: binary },
    }
  }
  for (const [status, codes] of problemStatuses(r)) {
    const listed = codes.map((c) => `\`${c}\``).join(', ')
    const problem = { schema: ref('schemas', 'Problem') }
    const existing = out[String(status)]
    if (existing) {
      // A success schema declared for an error status (getApiHealth's 503 report): either body may come.
      existing.description = `${existing.description as string}; or problem details (RFC 9457) with code ${listed}`
      ;(existing.content as Json)['application/problem+json'] = problem
      continue
    }
    out[String(status)] = {
      description: `${STATUS_CODES[status] ?? 'Error'}: problem details (RFC 9457) with code ${listed}`,
      headers: responseHeaders(r, status),
      content: { 'application/problem+json': problem },
    }
  }
  return Object.fromEntries(Object.entries(out).sort(([a], [b]) => Number(a) - Number(b)))
}

// ---------------------------------------------------------------------------------------------------
// Webhooks (OpenAPI 3.1): one POST per event type
// ---------------------------------------------------------------------------------------------------

function eventComponent(registry: SchemaRegistry, t: EventType): Json {
  return {
    type: 'object',
    description: `The \`${t.type}\` event (${t.module}): ${t.description}`,
    required: ['id', 'type', 'created_at', 'workspace_id', 'livemode', 'api_version', 'data'],
    properties: {
      id: { type: 'string', description: 'The event id (`evt_…`): the same in every attempt and replay; deduplicate on it.', examples: ['evt_01JD4M3Q8Y7ZV9S2K5R1X0B6TN'] },
      type: { type: 'string', enum: [t.type] },
      created_at: { type: 'string', format: 'date-time' },
      workspace_id: { type: 'string' },
      livemode: { type: 'boolean', description: 'false for events of the sandbox (svc_test_ keys).' },
      api_version: { type: 'string', description: 'The API version of the payload shape.' },
      data: {
        type: 'object',
        required: ['object'],
        properties: { object: registry.use(t.schema) },
      },
    },
  }
}

/**
 * How events reach receivers — headers, what their answers mean — belongs to the module that delivers them
 * (`defineModule({ eventDelivery })`); the kernel only lays out one POST per event type.
 */
export interface EventDelivery {
  /** Request headers of every delivery, as OpenAPI header parameters keyed by component name. */
  headers: Record<string, Json>
  /** How the receiver's answer is read. */
  responses: Record<string, Json>
  /** Appended to each event's description. */
  note: string
}

function webhooks(registry: SchemaRegistry, events: EventType[], delivery: EventDelivery): Json {
  const out: Record<string, Json> = {}
  for (const t of events) {
    const name = `${pascal(t.type)}Event`
    registry.hoist(name, eventComponent(registry, t))
    out[t.type] = {
      post: {
        operationId: `${camel(t.type)}Event`,
        summary: `Event ${t.type}`,
        description:
          `${t.description}\n\n${delivery.note.replaceAll('{type}', t.type)}`,
        tags: [t.module],
        security: [],
        parameters: Object.keys(delivery.headers).map((p) => ref('parameters', p)),
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: ref('schemas', name),
              example: {
                id: 'evt_01JD4M3Q8Y7ZV9S2K5R1X0B6TN',
                type: t.type,
                created_at: '2026-01-05T10:00:00.000Z',
                workspace_id: 'ws_01JD4M0000000000000000000',
                livemode: true,
                api_version: API_VERSION,
                data: { object: t.example },
              },
            },
          },
        },
        responses: delivery.responses,
      },
    }
  }
  return out
}

// ---------------------------------------------------------------------------------------------------
// The document
// ---------------------------------------------------------------------------------------------------

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

  const used = new Set(Object.values(paths).flatMap((m) => Object.values(m).flatMap((op) => ((op.parameters ?? []) as Json[]).map((p) => String(p.$ref ?? '').split('/').pop()))))
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
