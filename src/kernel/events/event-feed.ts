import type { Logger } from 'pino'
import type { Db, Executor } from '../db/database.js'
import { scoped } from '../db/scoped.js'
import { ulidTime } from '../ids.js'
import type { Tenant } from '../tenant.js'
import { eventFromRow, type EventEnvelope } from './events.js'
import { noBus, type FeedBus, type FeedMessage } from './feed-bus.js'

/** One stored event as the feed hands it out: the envelope and its JSON, serialized once for every client. */
export interface FeedEvent {
  envelope: EventEnvelope
  json: string
}

/** A connected client of one workspace and mode (an event stream). */
export interface FeedSubscriber {
  event(e: FeedEvent): void
  /** An ephemeral signal (presence): never stored, so never replayed. */
  signal(name: string, data: unknown): void
}

export interface FeedOptions {
  /** How often the events table is read while clients are connected (a wake reads it at once). */
  pollMs: number
  /**
   * Ids are made when an event is written, not when its transaction commits, so on PostgreSQL a slow
   * transaction can commit an event whose id sorts before one already delivered. Every read looks this
   * far back and skips what it delivered already.
   */
  lookbackMs: number
}

/** Rows one read takes; a backlog is read in several. */
const BATCH = 500
/** The smallest event id made at or after `ms`: resuming after it gets every event from then on. */
export const floorAt = (ms: number) => `evt_${ulidTime(ms)}${'0'.repeat(16)}`
const keyOf = (t: Tenant) => `${t.workspaceId}:${t.mode}`

type EventRow = { id: string; workspace_id: string; mode: 'live' | 'test'; type: string; api_version: string; data: string; created_at: string }

export const toFeedEvent = (row: EventRow): FeedEvent => {
  const envelope = eventFromRow(row)
  return { envelope, json: JSON.stringify(envelope) }
}

/**
 * The live feed of stored events to the clients connected to this process (GET /events/stream). One
 * tail per process reads the events table for every workspace — one query per poll, however many clients
 * — and hands each new event to the clients of its workspace and mode. Events are rows, so every node
 * sees every event, and a client resumes on any node from the table (`backlog`). The bus (feed-bus.ts)
 * only makes it quicker: a commit anywhere wakes every node's tail, and presence signals travel on it.
 */
export class EventFeed {
  private readonly subs = new Map<string, Set<FeedSubscriber>>()
  private count = 0
  private cursor = floorAt(Date.now())
  /** Ids delivered within the lookback, with when they were first seen. */
  private readonly recent = new Map<string, number>()
  private timer: NodeJS.Timeout | null = null
  private reading: Promise<void> | null = null
  private again = false
  private bus: FeedBus = noBus
  private wakeQueued = false
  private closed = false

  constructor(
    private readonly db: Db,
    private readonly log: Logger,
    readonly opts: FeedOptions,
  ) {}

  get busName(): FeedBus['name'] {
    return this.bus.name
  }

  /** Clients connected to this process. */
  get clients(): number {
    return this.count
  }

  async connect(bus: FeedBus): Promise<void> {
    this.bus = bus
    await bus.start((msg) => this.receive(msg))
  }

  subscribe(tenant: Tenant, sub: FeedSubscriber): () => void {
    const key = keyOf(tenant)
    let set = this.subs.get(key)
    if (!set) this.subs.set(key, (set = new Set()))
    set.add(sub)
    if (this.count++ === 0) this.startTail()
    let done = false
    return () => {
      if (done) return
      done = true
      set.delete(sub)
      if (set.size === 0) this.subs.delete(key)
      if (--this.count === 0) this.stopTail()
    }
  }

  /** An ephemeral signal to the workspace's clients on every node (presence). */
  signal(tenant: Tenant, name: string, data: unknown): void {
    this.deliverSignal(tenant.workspaceId, tenant.mode, name, data)
    this.bus.publish({ kind: 'signal', workspace_id: tenant.workspaceId, mode: tenant.mode, name, data })
  }

  /** A transaction that emitted events committed in this process: read now, and wake the other nodes (coalesced). */
  committed(): void {
    if (this.count > 0) this.readSoon()
    if (this.wakeQueued || this.bus === noBus) return
    this.wakeQueued = true
    setTimeout(() => {
      this.wakeQueued = false
      this.bus.publish({ kind: 'wake' })
    }, 5).unref()
  }

  /**
   * The workspace's events after `after` (a resume), oldest first, at most `limit`, starting `lookbackMs`
   * before it so that late commits are not skipped: the caller drops the ids its client has (at least once).
   */
  async backlog(db: Executor, tenant: Tenant, after: string, limit: number): Promise<FeedEvent[]> {
    const rows = await scoped(db, tenant)
      .selectFrom('events')
      .select(['id', 'workspace_id', 'mode', 'type', 'api_version', 'data', 'created_at'])
      .where('id', '>', after)
      .orderBy('id')
      .limit(limit)
      .execute()
    return rows.map(toFeedEvent)
  }

  /** Where a resume after `id` starts reading: the lookback before it. */
  resumeFloor(idTimeMs: number): string {
    return floorAt(idTimeMs - this.opts.lookbackMs)
  }

  async close(): Promise<void> {
    this.closed = true
    this.stopTail()
    await this.reading
    await this.bus.close()
  }

  private receive(msg: FeedMessage): void {
    if (msg.kind === 'wake') {
      if (this.count > 0) this.readSoon()
      return
    }
    if (msg.kind === 'signal' && typeof msg.workspace_id === 'string' && (msg.mode === 'live' || msg.mode === 'test')) {
      this.deliverSignal(msg.workspace_id, msg.mode, msg.name, msg.data)
    }
  }

  private deliverSignal(workspaceId: string, mode: string, name: string, data: unknown): void {
    const set = this.subs.get(`${workspaceId}:${mode}`)
    if (!set) return
    for (const s of set) s.signal(name, data)
  }

  private startTail(): void {
    if (this.closed) return
    // Only what is committed from now on (minus the lookback) is live; a client's own resume reads the rest.
    this.cursor = floorAt(Date.now() - this.opts.lookbackMs)
    this.recent.clear()
    this.schedule()
  }

  private stopTail(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
  }

  private schedule(): void {
    if (this.timer) clearTimeout(this.timer)
    this.timer = setTimeout(() => this.readSoon(), this.opts.pollMs)
    this.timer.unref()
  }

  private readSoon(): void {
    if (this.closed) return
    if (this.reading) {
      this.again = true
      return
    }
    this.reading = this.read()
      .catch((err: unknown) => this.log.warn({ err }, 'event feed: reading new events failed; retrying'))
      .finally(() => {
        this.reading = null
        if (this.count === 0 || this.closed) return
        if (this.again) {
          this.again = false
          this.readSoon()
        } else this.schedule()
      })
  }

  private async read(): Promise<void> {
    const now = Date.now()
    const lookback = floorAt(now - this.opts.lookbackMs)
    let from = this.cursor < lookback ? this.cursor : lookback
    for (;;) {
      const rows = await this.db.selectFrom('events').select(['id', 'workspace_id', 'mode', 'type', 'api_version', 'data', 'created_at']).where('id', '>', from).orderBy('id').limit(BATCH).execute()
      for (const row of rows) {
        if (this.recent.has(row.id)) continue
        this.recent.set(row.id, now)
        if (row.id > this.cursor) this.cursor = row.id
        const set = this.subs.get(`${row.workspace_id}:${row.mode}`)
        if (!set || set.size === 0) continue
        const e = toFeedEvent(row)
        for (const s of set) s.event(e)
      }
      for (const [id, seen] of this.recent) {
        // Map order is insertion order: the oldest first.
        if (now - seen <= this.opts.lookbackMs * 2) break
        this.recent.delete(id)
      }
      if (rows.length < BATCH || this.closed) return
      from = rows[rows.length - 1].id
    }
  }
}
