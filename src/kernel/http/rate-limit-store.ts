import { createRequire } from 'node:module'
import type { Redis } from 'ioredis'
import type { Logger } from 'pino'
import { primaryChannel } from '../cluster/cluster-channel.js'
import { ClusterRateLimitStore } from '../cluster/cluster-rate-limit.store.js'
import type { DependencyState } from '../dependencies.js'

type Counted = { current: number; ttl: number }
type Callback = (err: Error | null, res: Counted | null) => void
interface StoreOptions {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  routeInfo?: { method?: string; url?: string }
}
/** @fastify/rate-limit's store contract (its LocalStore, RedisStore and ours). */
interface Store {
  incr(key: string, cb: Callback, timeWindow: number, max: number): void
  read(key: string, cb: Callback, timeWindow: number, max: number): void
  child(options: StoreOptions): Store
}

// The plugin's own stores (CommonJS files without typings): its Lua script and LRU, not copies of them.
const load = createRequire(import.meta.url)
const RedisStore = load('@fastify/rate-limit/store/RedisStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean, redis: Redis, key: string) => Store
const LocalStore = load('@fastify/rate-limit/store/LocalStore.js') as new (continueExceeding: boolean, exponentialBackoff: boolean) => Store

/**
 * The rate limiter's link to Redis (REDIS_URL), and what to do while Redis cannot be used: count in this
 * process (or in the cluster's primary under WEB_CONCURRENCY) instead of letting every request through
 * (@fastify/rate-limit's skipOnError) or making it wait for a reconnect (ioredis's offline queue). A
 * request never waits longer than REDIS_COMMAND_TIMEOUT_MS for Redis; after a failure Redis is left alone
 * for `retryMs`, then tried again. One warning per outage, one notice when it ends.
 */
export class SharedCounters {
  private downSince: number | null = null
  private retryAt = 0
  private lastError: string | null = null

  constructor(
    readonly redis: Redis,
    private readonly log: Logger,
    /** REDIS_KEY_PREFIX: before every counter's key, so deployments sharing one Redis count apart. */
    private readonly keyPrefix = '',
    private readonly retryMs = 5_000,
  ) {
    // Without a listener ioredis prints every failed reconnect to stderr; the outage is logged once here.
    redis.on('error', (err: Error) => this.failed(err))
  }

  /** Resolves once Redis is ready, or has failed, or after `timeoutMs`: start-up does not wait for an outage. */
  connected(timeoutMs: number): Promise<void> {
    if (this.redis.status === 'ready') return Promise.resolve()
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer)
        this.redis.off('ready', done)
        this.redis.off('error', done)
        resolve()
      }
      const timer = setTimeout(done, timeoutMs)
      this.redis.once('ready', done)
      this.redis.once('error', done)
    })
  }

  /** Whether a request should ask Redis now (connected, and not inside the pause after a failure). */
  usable(): boolean {
    if (this.redis.status !== 'ready') {
      this.failed(new Error(this.lastError ?? `connection ${this.redis.status}`))
      return false
    }
    return Date.now() >= this.retryAt
  }

  failed(err: Error): void {
    this.retryAt = Date.now() + this.retryMs
    this.lastError = err.message
    if (this.downSince !== null) return
    this.downSince = Date.now()
    this.log.warn({ err: err.message }, 'Redis is unreachable: rate limits are counted in this process until it answers again')
  }

  succeeded(): void {
    if (this.downSince === null) return
    this.log.info({ down_seconds: Math.round((Date.now() - this.downSince) / 1000) }, 'Redis answers again: rate limits are shared again')
    this.downSince = null
    this.lastError = null
  }

  /** For /readyz and GET /health: a PING (bounded by the command timeout) when connected. */
  async check(): Promise<DependencyState> {
    const fallback = primaryChannel ? "the cluster's primary process" : 'this process'
    if (this.redis.status === 'ready') {
      try {
        await this.redis.ping()
        this.succeeded()
        return { status: 'ok', detail: 'Rate-limit counters are shared through Redis.' }
      } catch (err) {
        this.failed(err as Error)
      }
    }
    return {
      status: 'down',
      detail: `Redis is unreachable (${this.lastError ?? this.redis.status}): rate limits are counted in ${fallback} until it answers again.`,
      ...(this.downSince !== null ? { since: new Date(this.downSince).toISOString() } : {}),
    }
  }

  /**
   * The store class for @fastify/rate-limit's `store` option (it calls `new Store(globalOptions)`). Keys keep
   * the Redis store's layout under the key prefix and `nameSpace` (a route's own limit, the widget's per-address
   * ones included, is a child store under the same); the fallback is the plugin's LocalStore, or the cluster's.
   */
  storeClass(nameSpace: string): new (options: StoreOptions) => Store {
    const counters = this
    const fallback = (o: StoreOptions): Store => (primaryChannel ? new ClusterRateLimitStore(o) : new LocalStore(!!o.continueExceeding, !!o.exponentialBackoff))
    class FallbackRateLimitStore implements Store {
      private readonly shared: Store
      private readonly local: Store
      constructor(options: StoreOptions, shared?: Store, local?: Store) {
        this.shared = shared ?? new RedisStore(!!options.continueExceeding, !!options.exponentialBackoff, counters.redis, counters.keyPrefix + nameSpace)
        this.local = local ?? fallback(options)
      }
      incr(key: string, cb: Callback, timeWindow: number, max: number): void {
        this.count('incr', key, cb, timeWindow, max)
      }
      read(key: string, cb: Callback, timeWindow: number, max: number): void {
        this.count('read', key, cb, timeWindow, max)
      }
      child(options: StoreOptions): Store {
        return new FallbackRateLimitStore(options, this.shared.child(options), this.local.child(options))
      }
      private count(method: 'incr' | 'read', key: string, cb: Callback, timeWindow: number, max: number): void {
        if (!counters.usable()) return this.local[method](key, cb, timeWindow, max)
        this.shared[method](
          key,
          (err, res) => {
            if (!err) {
              counters.succeeded()
              return cb(null, res)
            }
            counters.failed(err)
            this.local[method](key, cb, timeWindow, max)
          },
          timeWindow,
          max,
        )
      }
    }
    return FallbackRateLimitStore
  }
}
