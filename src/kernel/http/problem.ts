import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AppError, errorSpec, type FieldError } from '../errors.js'

/** RFC 9457 problem details plus our stable `code` and the `request_id`. */
export const Problem = Type.Object(
  {
    type: Type.String({ format: 'uri' }),
    title: Type.String(),
    status: Type.Integer(),
    detail: Type.String(),
    instance: Type.String(),
    code: Type.String(),
    request_id: Type.String(),
    errors: Type.Optional(Type.Array(Type.Object({ pointer: Type.String(), detail: Type.String() }))),
  },
  { $id: 'Problem', additionalProperties: true, description: 'RFC 9457 problem details' },
)

let docsBase = 'http://localhost:8080/v2/api-docs'
export function setProblemDocsBase(base: string): void {
  docsBase = base
}
export const problemTypeUri = (code: string): string => `${docsBase}/errors/${code}`

export function sendProblem(request: FastifyRequest, reply: FastifyReply, err: AppError): FastifyReply {
  const { code, status, detail } = err
  const body: Record<string, unknown> = {
    type: problemTypeUri(code),
    title: errorSpec(code).title,
    status,
    detail,
    instance: request.url.split('?')[0],
    code,
    request_id: request.id,
  }
  // Extension members never replace the RFC 9457 ones: `status` is always the HTTP status (a domain state
  // travels under its own name, e.g. `call_status`).
  for (const [k, v] of Object.entries(err.extra)) if (k !== 'headers' && v !== undefined && !(k in body)) body[k] = v
  for (const [k, v] of Object.entries(err.headers)) reply.header(k, v)
  // An error that states its own challenge (RFC 6750 error="invalid_token" for OAuth tokens) keeps it.
  if (status === 401 && !err.headers['WWW-Authenticate']) reply.header('WWW-Authenticate', 'Bearer realm="svc"')
  // A string payload skips the route's response serializer, which only knows success shapes.
  return reply.code(status).type('application/problem+json').send(JSON.stringify(body))
}

const pointerBase: Record<string, string> = { body: '/body', querystring: '/query', params: '/path', headers: '/headers' }

/** Turn Ajv's errors into JSON pointers a client can map to its own fields. */
export function validationErrors(err: FastifyError): FieldError[] {
  const base = pointerBase[err.validationContext ?? 'body'] ?? '/body'
  return (err.validation ?? []).map((v) => {
    const params = v.params as Record<string, unknown>
    let pointer = base + (v.instancePath ?? '')
    if (typeof params?.missingProperty === 'string') pointer += `/${params.missingProperty}`
    if (typeof params?.additionalProperty === 'string') pointer += `/${params.additionalProperty}`
    let detail = v.message ?? 'is invalid'
    if (typeof params?.additionalProperty === 'string') detail = 'is not a known field'
    if (Array.isArray(params?.allowedValues)) detail += `: ${(params.allowedValues as unknown[]).join(', ')}`
    return { pointer, detail }
  })
}

/** Map framework errors (parsing, limits, validation) onto the catalogue; anything else is a 500. */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err
  const e = err as FastifyError & { code?: string }
  if (e?.validation) {
    const errors = validationErrors(e)
    return new AppError('validation_failed', errors.map((x) => `${x.pointer} ${x.detail}`).join('; '), { errors })
  }
  switch (e?.code) {
    case 'FST_ERR_CTP_INVALID_MEDIA_TYPE':
      return new AppError('unsupported_media_type', 'Send the request body as application/json.')
    case 'FST_ERR_CTP_BODY_TOO_LARGE':
      return new AppError('payload_too_large', 'The request body exceeds the size limit.')
    case 'FST_ERR_CTP_EMPTY_JSON_BODY':
      return new AppError('malformed_json', 'The body is empty but Content-Type says application/json; send {} or no Content-Type.')
    case 'FST_ERR_CTP_INVALID_CONTENT_LENGTH':
      return new AppError('bad_request', 'The Content-Length header does not match the body.')
  }
  if (e instanceof SyntaxError || e?.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || (e?.statusCode === 400 && /JSON/i.test(e.message))) {
    return new AppError('malformed_json', 'The request body is not valid JSON.')
  }
  if (isDatabaseUnavailable(e)) {
    return new AppError('service_unavailable', 'The database is unreachable; retry shortly.', { headers: { 'Retry-After': '5' } })
  }
  if (e?.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
    return new AppError('bad_request', e.message)
  }
  return new AppError('internal_error', 'Something went wrong on our side; the request_id identifies it in our logs.')
}

/** Connection-level database failures (not query errors): the client should retry, so 503 not 500. */
function isDatabaseUnavailable(e: { code?: string; message?: string } | undefined): boolean {
  if (!e) return false
  if (['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', '57P01', '57P03', '53300', 'SQLITE_BUSY', 'SQLITE_CANTOPEN'].includes(e.code ?? '')) return true
  return /pool after calling end|driver has already been destroyed|database connection is not open|Connection terminated/i.test(e.message ?? '')
}
