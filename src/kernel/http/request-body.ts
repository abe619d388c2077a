import type { FastifyRequest } from 'fastify'
import { AppError } from '../errors.js'

// fatal: a byte sequence that is not UTF-8 throws instead of becoming U+FFFD (which would then be stored).
const utf8 = new TextDecoder('utf-8', { fatal: true })

/**
 * A JSON body's text (RFC 8259 §8.1: JSON exchanged between systems is UTF-8), or a 400 problem when its
 * bytes are not UTF-8. Node's own decoding replaces bad sequences with U+FFFD silently: a client's broken
 * encoder would corrupt its data with a 2xx. A leading BOM is dropped.
 */
export function utf8Text(body: Buffer): string | AppError {
  try {
    return utf8.decode(body)
  } catch {
    return new AppError('malformed_json', 'The request body is not valid UTF-8; JSON must be sent as UTF-8.')
  }
}

/**
 * A request body sent with a Content-Encoding other than identity (gzip, br, deflate, …) is refused with
 * 415 (RFC 9110 §15.5.16, answered with `Accept-Encoding: identity`): the service does not inflate request
 * bodies, whose size limit would otherwise apply to the compressed bytes only. A request without a body
 * may carry the header.
 */
export function contentEncodingProblem(request: FastifyRequest): AppError | null {
  const header = request.headers['content-encoding']
  if (header === undefined) return null
  const codings = String(header)
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity')
  if (codings.length === 0) return null
  const length = request.headers['content-length']
  const hasBody = request.headers['transfer-encoding'] !== undefined || (length !== undefined && length !== '0')
  if (!hasBody) return null
  return new AppError('unsupported_media_type', `Content-Encoding ${codings.join(', ')} is not accepted: send the request body uncompressed (identity).`, {
    headers: { 'Accept-Encoding': 'identity' },
  })
}
