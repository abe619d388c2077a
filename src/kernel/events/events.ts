import { noteEmitted } from '../audit/audit.js'
import type { Static, TSchema } from 'typebox'
import { iso, type Clock } from '../clock.js'
import type { Insertable } from 'kysely'
import { fromJson, toJson, type Executor, type Tables } from '../db/database.js'
import { prepared } from '../db/prepared.js'
import { newId } from '../ids.js'
import { defineJob, enqueue, type JobDefinition } from '../jobs/jobs.js'
import type { Mode, Tenant } from '../tenant.js'
import '../db/kernel.tables.js'
import type { Role } from '../auth/roles.js'

/** Transactions that emitted an event: after they commit, the live feed reads at once (kernel.transaction). */
const emittedIn = new WeakSet<object>()
export const emittedDuring = (tx: Executor): boolean => emittedIn.has(tx)

export const API_VERSION = '2.4.0'

/** One entry of the event catalog: every type a module emits is declared here first. */
export interface EventType {
  type: string
  module: string
  description: string
  /** JSON Schema of `data.object`. */
  schema: TSchema
  example: Record<string, unknown>
  /** Who may read it on the live stream: the scope of the module's reads, and the least role of a member. */
  scope: string
  minRole: Role
}

/** Who may read a module's events on the live stream (GET /events/stream); webhooks are the admins' choice. */
export interface EventAccess {
  scope: string
  /** Default `member`. */
  minRole?: Role
}

/** How a module declares one of its event types; `defineEvents` adds the type and module. */
export interface EventDefinition<S extends TSchema = TSchema> {
  description: string
  schema: S
  example: Static<S>
}

/**
 * Every declared event type and its payload (`data.object`). Modules add theirs by declaration merging
 * next to `defineEvents`, so `emit()` accepts only declared types, with their payload, at compile time:
 * `declare module '…/kernel/events/events.js' { interface EventPayloads extends PayloadsOf<typeof MY_EVENTS> {} }`.
 */
export interface EventPayloads {}
export type EventTypeName = keyof EventPayloads & string
export type PayloadsOf<T extends Record<string, EventDefinition>> = { [K in keyof T]: Static<T[K]['schema']> }

/** One event type whose example is checked against its schema at compile time. */
export const eventType = <S extends TSchema>(d: EventDefinition<S>): EventDefinition<S> => d

/** A module's event types, declared once: the catalog endpoints, the OpenAPI `webhooks` and `emit()` all read them. */
export function defineEvents<T extends Record<string, EventDefinition>>(module: string, access: EventAccess, defs: T): T & { [catalogOf]: EventType[] } {
  const types = Object.entries(defs).map(([type, d]) => ({
    type,
    module,
    description: d.description,
    schema: d.schema,
    example: d.example as Record<string, unknown>,
    scope: access.scope,
    minRole: access.minRole ?? 'member',
  }))
  return Object.assign(defs, { [catalogOf]: types })
}
const catalogOf = Symbol('event catalog')
export type EventCatalog = { [catalogOf]: EventType[] }

export interface EventEnvelope {
  id: string
  type: string
  created_at: string
  workspace_id: string
  livemode: boolean
  api_version: string
  data: { object: unknown }
}

/** The tenant an event belongs to (its workspace, live or test). */
export const eventTenant = (event: Pick<EventEnvelope, 'workspace_id' | 'livemode'>): Tenant => ({ workspaceId: event.workspace_id, mode: event.livemode ? 'live' : 'test' })

export type EventSubscriber = (event: EventEnvelope) => Promise<void>
/** Runs inside the emitting transaction: its writes commit or roll back with the event itself. */
export type TransactionalSubscriber = (tx: Executor, event: EventEnvelope) => Promise<void>

/**
 * The outbox. `emit` writes the event in the caller's transaction and hands it to the transactional
 * subscribers there (the webhooks fan-out: one indexed read, and deliveries only where an endpoint
 * listens). Other subscribers run later from a durable dispatch job, enqueued in the same transaction.
 */
export class EventBus {
  private readonly types = new Map<string, EventType>()
  private readonly subscribers: { name: string; fn: EventSubscriber }[] = []
  private readonly inTransaction: { name: string; fn: TransactionalSubscriber }[] = []
  readonly dispatchJob: JobDefinition<{ event_id: string }>

  constructor(
    private readonly clock: Clock,
    private readonly load: (id: string) => Promise<EventEnvelope | null>,
  ) {
    this.dispatchJob = defineJob<{ event_id: string }>({
      name: 'events.dispatch',
      retrySchedule: [1, 5, 30, 120, 600],
      run: async ({ event_id }) => {
        const event = await this.load(event_id)
        if (!event) return
        // Subscribers are idempotent (unique keys), so a re-run after a crash is harmless.
        for (const s of this.subscribers) await s.fn(event)
      },
    })
  }

  declare(catalog: EventCatalog): void {
    for (const t of catalog[catalogOf]) {
      if (this.types.has(t.type)) throw new Error(`event type ${t.type} declared twice`)
      this.types.set(t.type, t)
    }
  }

  catalog(): EventType[] {
    return [...this.types.values()].sort((a, b) => a.type.localeCompare(b.type))
  }

  isDeclared(type: string): boolean {
    return this.types.has(type)
  }

  subscribe(name: string, fn: EventSubscriber): void {
    this.subscribers.push({ name, fn })
  }

  subscribeInTransaction(name: string, fn: TransactionalSubscriber): void {
    this.inTransaction.push({ name, fn })
  }

  async emit<K extends EventTypeName>(tx: Executor, tenant: Tenant, type: K, object: EventPayloads[K]): Promise<EventEnvelope> {
    if (!this.types.has(type)) throw new Error(`event type ${type} is not in the catalog`)
    const event: EventEnvelope = {
      id: newId('evt'),
      type,
      created_at: iso(this.clock.now()),
      workspace_id: tenant.workspaceId,
      livemode: tenant.mode === 'live',
      api_version: API_VERSION,
      data: { object },
    }
    await insertEvent.run(tx, {
      id: event.id,
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      type,
      api_version: API_VERSION,
      data: toJson(event.data),
      created_at: event.created_at,
    })
    noteEmitted(tx, tenant, type, object)
    emittedIn.add(tx)
    for (const s of this.inTransaction) await s.fn(tx, event)
    if (this.subscribers.length > 0) await enqueue(tx, this.clock, this.dispatchJob, { event_id: event.id })
    return event
  }
}

const insertEvent = prepared((tx, row: Insertable<Tables['events']>) => tx.insertInto('events').values(row))

export function eventFromRow(row: { id: string; workspace_id: string; mode: Mode; type: string; api_version: string; data: string; created_at: string }): EventEnvelope {
  return {
    id: row.id,
    type: row.type,
    created_at: row.created_at,
    workspace_id: row.workspace_id,
    livemode: row.mode === 'live',
    api_version: row.api_version,
    data: fromJson(row.data, { object: null }),
  }
}

export async function loadEvent(db: Executor, id: string): Promise<EventEnvelope | null> {
  const row = await db.selectFrom('events').selectAll().where('id', '=', id).executeTakeFirst()
  return row ? eventFromRow(row) : null
}
