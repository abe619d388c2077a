import cluster from 'node:cluster'
import { createHash, randomUUID } from 'node:crypto'
import { FEED_SVC } from '../cluster/cluster-channel.js'
import type { Redis } from 'ioredis'
import pg from 'pg'
import { sql } from 'kysely'
import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import type { Database } from '../db/database.js'

/**
 * How the processes and nodes of one deployment tell each other about the live feed (event-feed.ts): "new
 * events were committed, read them now" (a wake) and the ephemeral signals that are never stored (who is
 * viewing or typing in a conversation). Messages may be lost: a wake only shortens the wait for the next
 * poll, and a signal is refreshed by its sender every few seconds.
 */
export type FeedMessage = { kind: 'wake' } | { kind: 'signal'; workspace_id: string; mode: string; name: string; data: unknown }

export interface FeedBus {
  readonly name: 'postgres' | 'redis' | 'cluster' | 'none'
  /** Starts listening; `deliver` gets every message another process published (never this process's own). */
  start(deliver: (msg: FeedMessage) => void): Promise<void>
  publish(msg: FeedMessage): void
  close(): Promise<void>
}

/** One process alone (SQLite, one HTTP process): there is nobody to tell. */
export const noBus: FeedBus = { name: 'none', start: async () => {}, publish: () => {}, close: async () => {} }

/** PostgreSQL's NOTIFY payloads are limited to 8000 bytes; a signal is a few hundred. */
const MAX_PAYLOAD = 7900
/** The channel of one deployment: its database schema, so test runs (a schema each) never hear each other. */
export const channelOf = (schema: string | null) =>
  `svc_feed_${createHash('sha256')
    .update(schema ?? 'public')
    .digest('hex')
    .slice(0, 16)}`

interface Envelope {
  from: string
  msg: FeedMessage
}

function parse(raw: string, self: string): FeedMessage | null {
  try {
    const e = JSON.parse(raw) as Envelope
    if (!e || e.from === self || typeof e.msg !== 'object' || e.msg === null) return null
    return e.msg
  } catch {
    return null
  }
}

/**
 * LISTEN/NOTIFY on a dedicated connection (a pooled one may be handed to a query at any time). NOTIFY goes
 * out after the emitting transaction committed, on its own, so the business transaction never takes the
 * notification queue's lock. Behind a transaction-mode pooler (PgBouncer) LISTEN does not work: use
 * EVENT_FEED_BUS=redis or none there.
 */
export class PostgresBus implements FeedBus {
  readonly name = 'postgres'
  private readonly self = randomUUID()
  private client: pg.Client | null = null
  private closed = false
  private retry: NodeJS.Timeout | null = null

  constructor(
    private readonly url: string,
    private readonly channel: string,
    private readonly notify: (channel: string, payload: string) => Promise<void>,
    private readonly log: Logger,
  ) {}

  async start(deliver: (msg: FeedMessage) => void): Promise<void> {
    const client = new pg.Client({ connectionString: this.url })
    client.on('notification', (n) => {
      if (n.channel !== this.channel || !n.payload) return
      const msg = parse(n.payload, this.self)
      if (msg) deliver(msg)
    })
    client.on('error', (err) => {
      this.log.warn({ err }, 'event feed: the LISTEN connection failed; polling until it is back')
      this.reconnect(deliver)
    })
    try {
      await client.connect()
      await client.query(`LISTEN "${this.channel}"`)
      this.client = client
    } catch (err) {
      await client.end().catch(() => {})
      this.log.warn({ err }, 'event feed: LISTEN failed; polling until it works')
      this.reconnect(deliver)
    }
  }

  private reconnect(deliver: (msg: FeedMessage) => void): void {
    const old = this.client
    this.client = null
    void old?.end().catch(() => {})
    if (this.closed || this.retry) return
    this.retry = setTimeout(() => {
      this.retry = null
      if (!this.closed) void this.start(deliver)
    }, 2000)
    this.retry.unref()
  }

  publish(msg: FeedMessage): void {
    const payload = JSON.stringify({ from: this.self, msg } satisfies Envelope)
    if (payload.length > MAX_PAYLOAD) return
    this.notify(this.channel, payload).catch((err: unknown) => this.log.debug({ err }, 'event feed: NOTIFY failed'))
  }

  async close(): Promise<void> {
    this.closed = true
    if (this.retry) clearTimeout(this.retry)
    await this.client?.end().catch(() => {})
    this.client = null
  }
}

/** Redis pub/sub: a subscriber connection of its own (a subscribed connection can do nothing else). */
export class RedisBus implements FeedBus {
  readonly name = 'redis'
  private readonly self = randomUUID()
  private sub: Redis | null = null

  constructor(
    private readonly redis: Redis,
    private readonly channel: string,
    private readonly log: Logger,
  ) {}

  async start(deliver: (msg: FeedMessage) => void): Promise<void> {
    // The subscriber waits for Redis while it is away (offline queue on): it must resubscribe by itself.
    const sub = this.redis.duplicate({ enableOfflineQueue: true, maxRetriesPerRequest: null, lazyConnect: false })
    sub.on('error', (err: Error) => this.log.debug({ err }, 'event feed: Redis subscriber error'))
    sub.on('message', (channel: string, raw: string) => {
      if (channel !== this.channel) return
      const msg = parse(raw, this.self)
      if (msg) deliver(msg)
    })
    this.sub = sub
    await sub.subscribe(this.channel).catch((err: unknown) => this.log.warn({ err }, 'event feed: SUBSCRIBE failed; polling until Redis is back'))
  }

  publish(msg: FeedMessage): void {
    if (this.redis.status !== 'ready') return
    this.redis.publish(this.channel, JSON.stringify({ from: this.self, msg } satisfies Envelope)).catch((err: unknown) => this.log.debug({ err }, 'event feed: PUBLISH failed'))
  }

  async close(): Promise<void> {
    this.sub?.disconnect()
    this.sub = null
  }
}

/**
 * The HTTP processes of one box (WEB_CONCURRENCY > 1) on SQLite without Redis: through the cluster's primary,
 * which passes each message to the other processes over node:cluster's IPC channel.
 */
export class ClusterBus implements FeedBus {
  readonly name = 'cluster'
  private listener: ((raw: unknown) => void) | null = null

  async start(deliver: (msg: FeedMessage) => void): Promise<void> {
    this.listener = (raw) => {
      const m = raw as { svc?: unknown; msg?: FeedMessage } | null
      if (m?.svc === FEED_SVC && m.msg && typeof m.msg === 'object') deliver(m.msg)
    }
    process.on('message', this.listener)
  }

  publish(msg: FeedMessage): void {
    if (process.connected) process.send?.({ svc: FEED_SVC, id: 0, msg }, undefined, undefined, () => {})
  }

  async close(): Promise<void> {
    if (this.listener) process.off('message', this.listener)
    this.listener = null
  }
}

/**
 * EVENT_FEED_BUS: `auto` takes PostgreSQL's LISTEN/NOTIFY on PostgreSQL (no other service needed), Redis
 * pub/sub on SQLite when REDIS_URL is set, the cluster's primary for WEB_CONCURRENCY > 1 without Redis, else
 * none (one process: nobody to tell).
 */
export function feedBusFor(config: Config, database: Database, redis: Redis | null, log: Logger): FeedBus {
  const wanted = config.eventFeed.bus
  const channel = channelOf(database.schema)
  const pgBus = () => new PostgresBus(config.databaseUrl, channel, async (c, payload) => void (await sql`select pg_notify(${c}, ${payload})`.execute(database.db)), log)
  if (wanted === 'postgres') {
    if (database.engine !== 'postgres') throw new Error('EVENT_FEED_BUS=postgres needs DATABASE_URL=postgres://…')
    return pgBus()
  }
  // Redis may be shared by other deployments (REDIS_KEY_PREFIX); a database's NOTIFY channels are its own.
  const redisBus = (r: Redis) => new RedisBus(r, config.redis.keyPrefix + channel, log)
  if (wanted === 'redis') {
    if (!redis) throw new Error('EVENT_FEED_BUS=redis needs REDIS_URL')
    return redisBus(redis)
  }
  if (wanted === 'none') return noBus
  if (database.engine === 'postgres') return pgBus()
  if (redis) return redisBus(redis)
  return cluster.isWorker && process.send ? new ClusterBus() : noBus
}
