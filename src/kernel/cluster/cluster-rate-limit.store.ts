import { primaryChannel } from './cluster-channel.js'

type Callback = (err: Error | null, res: { current: number; ttl: number } | null) => void
interface StoreOptions {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  routeInfo?: { method?: string; url?: string }
}

/**
 * A @fastify/rate-limit store for the processes of one box without Redis (WEB_CONCURRENCY > 1): the
 * counters live in the cluster's primary, which counts them with the plugin's own LocalStore, so a client
 * gets the same limit whichever process its connections land on. With REDIS_URL set the Redis store is
 * used instead (several boxes). Keys of a route's own limit are prefixed as the Redis store prefixes them.
 */
export class ClusterRateLimitStore {
  constructor(
    private readonly options: StoreOptions,
    private readonly prefix = '',
  ) {}

  incr(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.ask('rl', key, cb, timeWindow, max)
  }

  read(key: string, cb: Callback, timeWindow: number, max: number): void {
    this.ask('rl:read', key, cb, timeWindow, max)
  }

  child(routeOptions: StoreOptions): ClusterRateLimitStore {
    return new ClusterRateLimitStore(routeOptions, `${this.prefix}${routeOptions.routeInfo?.method}${routeOptions.routeInfo?.url}-`)
  }

  private ask(kind: string, key: string, cb: Callback, timeWindow: number, max: number): void {
    const fields = { key: this.prefix + key, window: timeWindow, max, cont: !!this.options.continueExceeding, exp: !!this.options.exponentialBackoff }
    primaryChannel!.request(kind, fields).then(
      (m) => cb(null, { current: Number(m.current), ttl: Number(m.ttl) }),
      (err: Error) => cb(err, null),
    )
  }
}
