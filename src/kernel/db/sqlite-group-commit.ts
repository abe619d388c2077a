import type SQLite from 'better-sqlite3'
import { CompiledQuery, SelectQueryNode, SqliteDialect, type DatabaseConnection, type Driver, type LogEvent, type QueryResult } from 'kysely'

/**
 * Group commit on SQLite (issue 36, docs/performance.md "The write path and the tail, round 2").
 *
 * A write's COMMIT (its WAL append, and now and then the checkpoint it triggers) was two thirds of the time a
 * sendMessage spent in SQLite. Here the transactions that queue for the one connection share a COMMIT: the
 * first issues `BEGIN IMMEDIATE`, each runs inside a savepoint of its own (a failure rolls back to it, so one
 * request's failure never undoes another's statements), and the group commits when no transaction waits, when
 * it holds `maxMembers`, or when it has been open `maxOpenMs` (so another process — a worker, the API log's
 * writer thread — gets the write lock). Each member's `transaction().execute()` resolves only after the
 * group's COMMIT succeeded (acknowledged ⇒ durable); if the COMMIT fails, every member rejects.
 *
 * A statement outside a transaction never runs inside an open group (it would be committed by another's
 * COMMIT, or read another request's uncommitted rows): it waits until the group has committed. Transactions
 * that queue behind it may join the group first, within the same bounds.
 */
export interface GroupCommitLimits {
  maxMembers: number
  maxOpenMs: number
}

const MEMBER = 'group_member'

class Group {
  /** Members whose savepoint was released: their work commits with the group. */
  members = 0
  readonly openedAt = performance.now()
  readonly committed: Promise<void>
  resolve!: () => void
  reject!: (err: unknown) => void
  constructor() {
    this.committed = new Promise<void>((resolve, reject) => {
      this.resolve = resolve
      this.reject = reject
    })
    // A group whose members all failed has no one awaiting it.
    this.committed.catch(() => {})
  }
}

interface Waiter {
  transaction: boolean
  resolve: () => void
}

/**
 * One acquisition of the connection. The lock is taken at first use, when it is known whether the caller
 * wants a transaction (a group member) or a plain statement (which must not run inside a group).
 */
class Lease implements DatabaseConnection {
  state: 'idle' | 'plain' | 'member' | 'committing' | 'solo' = 'idle'
  group: Group | null = null
  constructor(private readonly driver: GroupCommitSqliteDriver) {}

  async executeQuery<R>(query: CompiledQuery): Promise<QueryResult<R>> {
    if (this.state === 'idle') await this.driver.lockPlain(this)
    return this.driver.run<R>(query)
  }

  async *streamQuery<R>(query: CompiledQuery): AsyncIterableIterator<QueryResult<R>> {
    if (this.state === 'idle') await this.driver.lockPlain(this)
    if (!SelectQueryNode.is(query.query)) throw new Error('Sqlite driver only supports streaming of select queries')
    for (const row of this.driver.database.prepare(query.sql).iterate(query.parameters as unknown[])) yield { rows: [row as R] }
  }
}

export class GroupCommitSqliteDriver implements Driver {
  readonly #queue: Waiter[] = []
  #held = false
  #group: Group | null = null

  constructor(
    /** The connection as Kysely's statements use it (with the statement cache). */
    readonly database: SQLite.Database,
    /** The same connection, unwrapped: `inTransaction` tells whether SQLite itself rolled a transaction back. */
    private readonly raw: SQLite.Database,
    private readonly limits: GroupCommitLimits,
    /** Kysely's log (statement counts, tracing spans) for the control statements run here. */
    private readonly log?: (event: LogEvent) => void,
    /** Told of each COMMIT (the checkpoint thread starts once the process writes: sqlite-checkpointer.ts). */
    private readonly committed?: () => void,
  ) {}

  async init(): Promise<void> {}

  async acquireConnection(): Promise<DatabaseConnection> {
    return new Lease(this)
  }

  async beginTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (lease.state === 'plain') {
      // A transaction on a connection already held for plain statements (`db.connection()`): alone.
      this.#exec('begin immediate')
      lease.state = 'solo'
      return
    }
    await this.#lock(true)
    try {
      if (!this.#group) {
        this.#exec('begin immediate')
        this.#group = new Group()
      }
      this.#exec(`savepoint ${MEMBER}`)
    } catch (err) {
      lease.state = 'idle'
      if (this.#group && this.#group.members === 0) this.#closeGroup()
      this.#handOff()
      throw err
    }
    lease.state = 'member'
    lease.group = this.#group
  }

  async commitTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (lease.state === 'solo') {
      this.#exec('commit')
      lease.state = 'plain'
      this.committed?.()
      return
    }
    const group = lease.group!
    this.#exec(`release ${MEMBER}`)
    group.members++
    lease.state = 'committing'
    this.#handOff()
    // Kysely calls releaseConnection after this returns; the connection is already someone else's. Inside
    // `db.connection()` a later statement or transaction takes the lock again.
    await group.committed
    lease.state = 'idle'
  }

  async rollbackTransaction(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (lease.state === 'solo') {
      this.#exec('rollback')
      lease.state = 'plain'
      return
    }
    // 'committing': the group's COMMIT failed and the group was rolled back already.
    if (lease.state === 'committing') lease.state = 'idle'
    if (lease.state === 'member') this.#leave(lease)
  }

  async releaseConnection(connection: DatabaseConnection): Promise<void> {
    const lease = connection as Lease
    if (lease.state === 'member') this.#leave(lease)
    else if (lease.state === 'plain' || lease.state === 'solo') {
      if (lease.state === 'solo') this.#exec('rollback')
      lease.state = 'idle'
      this.#handOff()
    }
  }

  async destroy(): Promise<void> {
    await this.#lock(false)
    this.raw.close()
  }

  async lockPlain(lease: Lease): Promise<void> {
    await this.#lock(false)
    lease.state = 'plain'
  }

  run<R>(query: CompiledQuery): QueryResult<R> {
    const stmt = this.database.prepare(query.sql)
    const parameters = query.parameters as unknown[]
    if (stmt.reader) return { rows: stmt.all(parameters) as R[] }
    const { changes, lastInsertRowid } = stmt.run(parameters)
    return { numAffectedRows: BigInt(changes), insertId: BigInt(lastInsertRowid), rows: [] }
  }

  #lock(transaction: boolean): Promise<void> {
    if (!this.#held) {
      this.#held = true
      return Promise.resolve()
    }
    return new Promise((resolve) => this.#queue.push({ transaction, resolve }))
  }

  /**
   * The connection goes to the next waiter. While a group is open and within its bounds, a waiting
   * transaction joins it, ahead of plain statements; otherwise the group commits first.
   */
  #handOff(): void {
    const group = this.#group
    if (group) {
      const full = group.members >= this.limits.maxMembers || performance.now() - group.openedAt >= this.limits.maxOpenMs
      const i = full ? -1 : this.#queue.findIndex((w) => w.transaction)
      if (i >= 0) return this.#queue.splice(i, 1)[0].resolve()
      this.#closeGroup()
    }
    const next = this.#queue.shift()
    if (next) next.resolve()
    else this.#held = false
  }

  /** COMMIT the open group (ROLLBACK when none of its members succeeded): its members resolve or reject. */
  #closeGroup(): void {
    const group = this.#group!
    this.#group = null
    try {
      this.#exec(group.members > 0 ? 'commit' : 'rollback')
      if (group.members > 0) this.committed?.()
      group.resolve()
    } catch (err) {
      this.#abandon(group, err)
    }
  }

  /** A member that did not commit (rolled back, or released mid-transaction): undone, and the connection passed on. */
  #leave(lease: Lease): void {
    lease.state = 'idle'
    this.#undoMember(lease.group!)
    this.#handOff()
  }

  /** A failed member: back to its savepoint. If SQLite rolled the whole transaction back, the group is lost. */
  #undoMember(group: Group): void {
    if (!this.raw.inTransaction) return this.#abandon(group, new Error('SQLite rolled back the group commit transaction after a failed statement'))
    try {
      this.#exec(`rollback to ${MEMBER}`)
      this.#exec(`release ${MEMBER}`)
    } catch (err) {
      this.#abandon(group, err)
    }
  }

  #abandon(group: Group, err: unknown): void {
    if (this.#group === group) this.#group = null
    if (this.raw.inTransaction) {
      try {
        this.#exec('rollback')
      } catch {
        // The transaction is gone either way; the members learn of it below.
      }
    }
    group.reject(err)
  }

  #exec(statement: string): void {
    const start = performance.now()
    const query = CompiledQuery.raw(statement)
    try {
      this.database.prepare(statement).run()
    } catch (error) {
      this.log?.({ level: 'error', error, query, queryDurationMillis: performance.now() - start })
      throw error
    }
    this.log?.({ level: 'query', query, queryDurationMillis: performance.now() - start })
  }
}

export class GroupCommitSqliteDialect extends SqliteDialect {
  constructor(private readonly driver: GroupCommitSqliteDriver) {
    super({ database: driver.database })
  }
  override createDriver(): Driver {
    return this.driver
  }
}
