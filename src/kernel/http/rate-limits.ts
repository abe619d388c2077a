import rateLimit from '@fastify/rate-limit'
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { primaryChannel } from '../cluster/cluster-channel.js'
import { ClusterRateLimitStore } from '../cluster/cluster-rate-limit.store.js'
import type { Config } from '../../config.js'
import { AppError } from '../errors.js'
import type { SharedCounters } from './rate-limit-store.js'

/** Runs the global limit on a request no route's hooks reach (router errors, unrouted paths); throws when over it. */
export type Limiter = (request: FastifyRequest, reply: FastifyReply) => Promise<void>

/**
 * The global rate limit, keyed by the presented key's hash (`bucketOf`), so even a 401 carries the headers.
 * Returns the limiter for requests that reach no route.
 */
export async function registerRateLimits(
  app: FastifyInstance,
  config: Pick<Config, 'rateLimitPerMinute'>,
  counters: SharedCounters | null,
  bucketOf: (request: FastifyRequest) => Promise<string>,
): Promise<Limiter> {
  await app.register(rateLimit, {
    global: true,
    max: config.rateLimitPerMinute,
    timeWindow: 60_000,
    hook: 'onRequest',
    // Redis when configured, counted here (or in the cluster's primary) whenever Redis cannot answer at once
    // (rate-limit-store.ts); without Redis, the processes of one box count in the cluster's primary.
    ...(counters ? { store: counters.storeClass('svc-rl:') as never } : primaryChannel ? { store: ClusterRateLimitStore as never } : {}),
    // The stores fall back themselves: a failure left is a fault to see, never a limit silently off.
    skipOnError: false,
    // A known key has its own bucket; everything else (no key, a malformed, unknown or revoked key, a
    // public operation) shares its client address's bucket, so inventing keys cannot escape the limit.
    keyGenerator: bucketOf,
    errorResponseBuilder: (_request, context) =>
      new AppError('rate_limited', `Rate limit of ${context.max} requests per ${context.after} exceeded; retry after the Retry-After seconds.`, {
        headers: { 'Retry-After': String(Math.max(1, Math.ceil(context.ttl / 1000))) },
      }),
  })
  const limiter = app.rateLimit() as unknown as (this: FastifyInstance, req: FastifyRequest, rep: FastifyReply) => Promise<void>
  return (request, reply) => limiter.call(app, request, reply)
}

/** @fastify/rate-limit sends X-RateLimit-*; add the IETF draft fields and make Reset an epoch time. */
export function ietfRateLimitHeaders(request: FastifyRequest, reply: FastifyReply): void {
  const limit = reply.getHeader('x-ratelimit-limit')
  const remaining = reply.getHeader('x-ratelimit-remaining')
  const reset = reply.getHeader('x-ratelimit-reset')
  if (limit === undefined || remaining === undefined || reset === undefined) return
  const secondsLeft = Number(reset)
  const policy = request.routeOptions.config?.rateLimit ? 'replay' : 'default'
  reply.header('X-RateLimit-Reset', String(Math.ceil(Date.now() / 1000) + secondsLeft))
  reply.header('RateLimit-Policy', `"${policy}";q=${String(limit)};w=60`)
  reply.header('RateLimit', `"${policy}";r=${String(remaining)};t=${secondsLeft}`)
}
