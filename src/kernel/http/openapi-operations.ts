import { STATUS_CODES } from 'node:http'
import type { TSchema } from 'typebox'
import type { AnyRoute } from './define-route.js'
import { responseHeaders } from './openapi-components.js'
import { isObject, pascal, plural, ref, schemaName, words, type Json, type SchemaRegistry } from './openapi-registry.js'
import { BODY_METHODS, WRITE_METHODS, problemStatuses } from './problem-statuses.js'
import { ERROR_EVENT, SSE_DEFAULTS } from './sse-contract.js'

/** One operation's parts of the document: its parameters, request body and every response it can answer. */

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

export function parameters(registry: SchemaRegistry, r: AnyRoute): Json[] {
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

export function requestBody(registry: SchemaRegistry, r: AnyRoute): Json | undefined {
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
    content: {
      'text/event-stream': { schema: { description: 'The `data` of one event: JSON, one line.', anyOf: [registry.use(schema, `${pascal(r.operationId)}Event`), ref('schemas', 'Problem')] } },
    },
  }
  if (opts.ownIds) return
  // Only a resume answers 204, and a resume skips Idempotency-Key: never a replay.
  const { 'Idempotent-Replayed': _never, ...headers } = responseHeaders(r, 204)
  out['204'] = {
    description: 'A resume (`Last-Event-ID`) of a stream that has ended, with no event left to deliver (EventSource clients stop reconnecting).',
    headers,
  }
}

export function responses(registry: SchemaRegistry, r: AnyRoute): Json {
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
    if (r.media.ranges !== false)
      out['206'] = {
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
