import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { Socket } from 'node:net'
import { AppError } from '../errors.js'
import { API_VERSION } from '../events/events.js'
import { underBase } from './bases.js'
import type { AnyRoute } from './define-route.js'
import { sendProblem, toAppError } from './problem.js'
import { ietfRateLimitHeaders, type Limiter } from './rate-limits.js'
import { writeRawProblem } from './request-ids.js'

/**
 * Requests no operation answers — an unknown path or method, a path the router cannot read, a method the
 * HTTP parser does not know — still get the API's contract: problem+json, X-Request-ID, the rate limit,
 * and 405 with Allow where the path is known.
 */
export class UnroutedRequests {
  private readonly routeIndex: { pattern: RegExp; method: string }[] = []
  /** Set once the rate limiter is registered (no request arrives before). */
  limit: Limiter = () => Promise.resolve()

  constructor(private readonly publicUrl: string) {}

  /** Remembers the operations' paths under a base URL, for 405's Allow. */
  addRoutes(prefix: string, routes: AnyRoute[]): void {
    for (const r of routes) {
      const pattern = new RegExp('^' + (prefix + r.url).replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{[a-z_]+\}/g, '[^/]+') + '/?$')
      this.routeIndex.push({ pattern, method: r.method })
    }
  }

  /** A known path with another method → 405 with Allow; any other path → 404. */
  problem(request: Pick<FastifyRequest, 'method' | 'url'>): AppError {
    const path = request.url.split('?')[0]
    const allowed = [...new Set(this.routeIndex.filter((r) => r.pattern.test(path)).map((r) => r.method))]
    if (allowed.length > 0) {
      return new AppError('method_not_allowed', `${request.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}.`, { headers: { Allow: allowed.join(', ') } })
    }
    return new AppError('route_not_found', `No operation at ${request.method} ${path}. See ${this.publicUrl}/v2/api-docs.`)
  }

  /**
   * Errors the router raises before any route runs (bad percent-encoding, an over-long path parameter)
   * get the same contract as every other answer: problem+json, X-Request-ID, the rate limit.
   */
  async routerError(err: FastifyError, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    reply.header('X-Request-ID', request.id)
    reply.header('Svc-Api-Version', API_VERSION)
    try {
      await this.limit(request, reply)
    } catch (limited) {
      ietfRateLimitHeaders(request, reply)
      sendProblem(request, reply, toAppError(limited))
      return
    }
    ietfRateLimitHeaders(request, reply)
    const path = (request.raw.url ?? '').split('?')[0]
    const problem =
      err.code === 'FST_ERR_MAX_PARAM_LENGTH'
        ? new AppError('uri_too_long', 'A path parameter is longer than 100 characters; no resource has such an id.')
        : err.code === 'FST_ERR_BAD_URL'
          ? new AppError('bad_request', `The path ${JSON.stringify(path.slice(0, 200))} is not valid percent-encoded UTF-8.`)
          : toAppError(err)
    sendProblem(request, reply, problem)
  }

  /**
   * A method the HTTP parser does not know at all (`FOO /v2/…`) fails before any request exists; under
   * the base URLs it still gets the 405 (with Allow) or 404 its path deserves, not "not valid HTTP".
   */
  unknownMethod(err: Error & { code?: string; rawPacket?: unknown }, socket: Socket): boolean {
    if (err.code !== 'HPE_INVALID_METHOD' || !socket.writable || !Buffer.isBuffer(err.rawPacket)) return false
    const line = /^([!#$%&'*+.^_`|~0-9A-Za-z-]{1,32}) (\/[^\s?]*)\S* HTTP\/1\.[01]\r?\n/.exec(err.rawPacket.subarray(0, 2048).toString('latin1'))
    if (!line || !underBase(line[2])) return false
    const problem = this.problem({ method: line[1], url: line[2] })
    writeRawProblem(socket, problem.status, problem.code, problem.detail, problem.headers)
    return true
  }

  /**
   * Under the base URLs a 404 or 405 is answered before the body is read (rate-limited, as the not-found
   * handler is): neither a body nor a missing Content-Type (which Fastify demands of QUERY) turns it into
   * a 400 or 415. Other paths (v1, the callbacks) keep their own not-found handlers.
   */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', (request, reply, done) => {
      if (!request.is404) return done()
      if (!underBase(request.url.split('?')[0])) return done()
      this.limit(request, reply)
        .then(
          () => sendProblem(request, reply, this.problem(request)),
          (limited) => sendProblem(request, reply, toAppError(limited)),
        )
        .catch(done)
    })
    app.setNotFoundHandler({ preHandler: app.rateLimit() }, async (request, reply) => sendProblem(request, reply, this.problem(request)))
  }
}
