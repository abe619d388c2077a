import type { FastifyReply } from 'fastify'

/** RFC 6749 §5.2 (token endpoint), §4.1.2.1 (authorization response) and RFC 7009 error codes. */
export type OAuthErrorCode =
  | 'invalid_request'
  | 'invalid_client'
  | 'invalid_grant'
  | 'unauthorized_client'
  | 'unsupported_grant_type'
  | 'invalid_scope'
  | 'access_denied'
  | 'unsupported_response_type'
  | 'unsupported_token_type'
  | 'server_error'

/** An OAuth protocol error: answered as `{ error, error_description }`, not as a problem+json. */
export class OAuthError extends Error {
  readonly status: number
  constructor(
    readonly error: OAuthErrorCode,
    readonly description: string,
  ) {
    super(description)
    this.status = error === 'invalid_client' ? 401 : error === 'server_error' ? 500 : 400
  }
}

/** Token and revocation answers are never cached (RFC 6749 §5.1). */
export function noStore(reply: FastifyReply): FastifyReply {
  return reply.header('Cache-Control', 'no-store').header('Pragma', 'no-cache')
}

export function sendOAuthError(reply: FastifyReply, err: OAuthError): FastifyReply {
  noStore(reply)
  // RFC 6749 §5.2: a failed client authentication is 401 with the scheme the client can use.
  if (err.status === 401) reply.header('WWW-Authenticate', 'Basic realm="oauth", charset="UTF-8"')
  return reply.code(err.status).type('application/json; charset=utf-8').send({ error: err.error, error_description: err.description })
}

/** The first parameter a form repeats (RFC 6749 §3.1, §3.2: parameters MUST NOT be included more than once). */
export function repeatedParameter(form: URLSearchParams): string | null {
  const seen = new Set<string>()
  for (const k of form.keys()) {
    if (seen.has(k)) return k
    seen.add(k)
  }
  return null
}
