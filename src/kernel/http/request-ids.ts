import { STATUS_CODES } from 'node:http'
import type { IncomingMessage } from 'node:http'
import type { Socket } from 'node:net'
import { errorSpec } from '../errors.js'
import { API_VERSION } from '../events/events.js'
import { randomToken } from '../ids.js'
import { problemTypeUri } from './problem.js'

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/

// Request ids: a random per-process prefix and a counter — unique across nodes, no entropy per request.
const REQUEST_ID_PREFIX = `req_${randomToken(6)}`
let requestCounter = 0
export function nextRequestId(): string {
  requestCounter = (requestCounter + 1) % Number.MAX_SAFE_INTEGER
  return `${REQUEST_ID_PREFIX}${requestCounter.toString(36)}`
}

/** The caller's X-Request-ID when it is a plain token, else a fresh one (Fastify's genReqId). */
export function requestIdOf(req: IncomingMessage): string {
  const incoming = req.headers['x-request-id']
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : nextRequestId()
}

/** The HTTP parser rejected the bytes: answer a minimal problem on the socket, as Fastify's default does. */
export function clientError(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || !socket.writable) {
    socket.destroy()
    return
  }
  const [status, code, detail] =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? ([431, 'request_header_fields_too_large', 'The request headers are too large.'] as const)
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? ([408, 'bad_request', 'The request was not received in time.'] as const)
        : ([400, 'bad_request', 'The request is not valid HTTP.'] as const)
  writeRawProblem(socket, status, code, detail)
}

/** A problem written straight to the socket (no request object exists), closing the connection. */
export function writeRawProblem(socket: Socket, status: number, code: string, detail: string, headers: Record<string, string> = {}): void {
  const requestId = nextRequestId()
  const body = JSON.stringify({ type: problemTypeUri(code), title: errorSpec(code).title, status, detail, instance: '', code, request_id: requestId })
  const extra = Object.entries(headers)
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('')
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/problem+json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n${extra}` +
      `X-Request-ID: ${requestId}\r\nSvc-Api-Version: ${API_VERSION}\r\nConnection: close\r\n\r\n${body}`,
  )
}
