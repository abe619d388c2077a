import { mkdirSync } from 'node:fs'
import { dirname } from 'node:path'
import SQLite from 'better-sqlite3'
import { CompiledQuery, Kysely, PostgresDialect, SqliteDialect, SqliteDriver, sql, type DatabaseConnection, type Driver, type LogEvent, type SqliteDialectConfig, type Transaction } from 'kysely'
import pg from 'pg'
import { statementName } from './prepared.js'
import { SqliteThread } from './sqlite-thread.js'
import { CHECKPOINTER_DEFAULTS, SqliteCheckpointer, type CheckpointerOptions } from './sqlite-checkpointer.js'
import { GroupCommitSqliteDialect, GroupCommitSqliteDriver, type GroupCommitLimits } from './sqlite-group-commit.js'
import { databaseQueryLogger } from '../tracing/tracing.js'

/**
 * The whole schema. Each module adds its tables by declaration merging
 * (`declare module '…/kernel/db/database.js' { interface Tables { … } }`), so the kernel names none.
 */
export interface Tables {}

export type Db = Kysely<Tables>
export type Tx = Transaction<Tables>
/** Either the pool or an open transaction: repositories accept both. */
export type Executor = Db | Tx

export type Engine = 'sqlite' | 'postgres'

export interface Database {
  db: Db
  engine: Engine
  /** PostgreSQL schema in use (search_path), or null for the default. */
  schema: string | null
  /** Cheap round trip for health checks. */
  ping(): Promise<void>
  close(): Promise<void>
  /** Pool statistics for metrics (PostgreSQL); SQLite reports one connection. */
  poolStats(): { total: number; idle: number; waiting: number }
  /** A SQLite file's background thread (checkpoints, the API log's writes: sqlite-thread.ts); null otherwise. */
  thread: SqliteThread | null
}

// pg returns BIGINT/NUMERIC as strings by default; our counters fit in a JS number.
pg.types.setTypeParser(20, (v) => Number(v))
pg.types.setTypeParser(1700, (v) => Number(v))

/**
 * Kysely prepares every statement anew; on SQLite that was ~8% of a request's CPU. The SQL text of a
 * query builder call is stable, so a bounded cache of prepared statements is safe (better-sqlite3 is
 * synchronous: a statement is never used by two queries at once).
 *
 * Rows are read as arrays and turned into objects by a constructor generated from the statement's
 * columns: better-sqlite3 builds each row object property by property in C++, which measured ~30% slower
 * for a page of 20 conversations than V8 building objects of one fixed shape.
 */
function withStatementCache(sqlite: SQLite.Database, max = 500): SQLite.Database {
  const cache = new Map<string, SQLite.Statement>()
  const prepare = sqlite.prepare.bind(sqlite)
  return new Proxy(sqlite, {
    get(target, prop, receiver) {
      if (prop === 'prepare') {
        return (source: string) => {
          let stmt = cache.get(source)
          if (!stmt) {
            stmt = rowsAsArrays(prepare(source), () => prepare(source))
            if (cache.size >= max) cache.delete(cache.keys().next().value as string)
            cache.set(source, stmt)
          }
          return stmt
        }
      }
      const v = Reflect.get(target, prop, receiver)
      return typeof v === 'function' ? v.bind(target) : v
    },
  })
}

/** The statement as Kysely uses it (`reader`, `all`, `run`, `iterate`), reading rows in raw mode. */
function rowsAsArrays(stmt: SQLite.Statement, again: () => SQLite.Statement): SQLite.Statement {
  if (!stmt.reader) return stmt
  const names = stmt.columns().map((c) => c.name)
  // Later columns of the same name win, as in better-sqlite3's own row objects.
  // eslint-disable-next-line @typescript-eslint/no-implied-eval
  const row = new Function('r', `return {${names.map((n, i) => `${JSON.stringify(n)}: r[${i}]`).join(', ')}}`) as (r: unknown[]) => unknown
  stmt.raw(true)
  let objects: SQLite.Statement | undefined
  return {
    reader: true,
    all: (params: unknown[]) => {
      const rows = stmt.all(params) as unknown[][]
      const out = new Array<unknown>(rows.length)
      for (let i = 0; i < rows.length; i++) out[i] = row(rows[i])
      return out
    },
    run: (params: unknown[]) => stmt.run(params),
    iterate: (params: unknown[]) => (objects ??= again()).iterate(params),
  } as unknown as SQLite.Statement
}

export function createDatabase(
  url: string,
  opts: {
    schema?: string | null
    poolSize?: number
    sqliteSynchronous?: 'NORMAL' | 'FULL'
    /** SQLite: transactions waiting for the connection share one COMMIT (DATABASE_GROUP_COMMIT; sqlite-group-commit.ts). Off unless asked for. */
    groupCommit?: boolean | Partial<GroupCommitLimits>
    /** SQLite: WAL checkpoints on a thread of their own (DATABASE_CHECKPOINT_THREAD; sqlite-checkpointer.ts). On unless `false`. */
    checkpointThread?: boolean | Partial<CheckpointerOptions>
    /** Sees every statement's SQL and milliseconds (BEGIN and COMMIT included): bench/statements.ts counts them. */
    onStatement?: (sql: string, ms: number) => void
  } = {},
): Database {
  const log = statementLogger(opts.onStatement)
  if (url.startsWith('postgres://') || url.startsWith('postgresql://')) {
    const schema = opts.schema
    const pool = new pg.Pool({
      connectionString: url,
      max: opts.poolSize ?? 10,
      // A schema per deployment/test run: set it on every new connection. JIT off: it compiles a query whose
      // estimate is large (a GIN prefix match at a million conversations: ~17 ms of compiling for 0.3 ms of
      // work); our queries are short, and PostgreSQL's docs keep JIT for long analytical ones.
      options: `-c jit=off${schema ? ` -c search_path=${schema}` : ''}`,
    })
    // The service's prepared queries go out as named statements: PostgreSQL parses and plans each once per
    // connection instead of on every call (its CPU shares the machine with ours).
    pool.on('connect', (client) => {
      const query = client.query.bind(client) as (...args: unknown[]) => unknown
      ;(client as unknown as { query: (...args: unknown[]) => unknown }).query = (text: unknown, values?: unknown, cb?: unknown) => {
        const name = typeof text === 'string' ? statementName(text) : undefined
        return name ? query({ name, text, values }, cb) : query(text, values, cb)
      }
    })
    // A span per statement when tracing is on (kernel/tracing); without it Kysely skips its logging entirely.
    const db = new Kysely<Tables>({ dialect: new PostgresDialect({ pool }), log: log('postgres') })
    return {
      db,
      engine: 'postgres',
      schema: schema ?? null,
      ping: async () => {
        await sql`select 1`.execute(db)
      },
      close: () => db.destroy(),
      poolStats: () => ({ total: pool.totalCount, idle: pool.idleCount, waiting: pool.waitingCount }),
      thread: null,
    }
  }
  if (!url.startsWith('sqlite:')) throw new Error(`DATABASE_URL must start with sqlite: or postgres://, got "${url}"`)
  const path = url.slice('sqlite:'.length) || ':memory:'
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true })
  const sqlite = new SQLite(path)
  // Erasure (docs/compliance.md "Erasure on disk"): a deleted row's bytes are zeroed in its page, not left
  // in free space. Incremental auto-vacuum lets reclaim.ts give free pages back without a full VACUUM; it
  // takes effect only in a file created with it (an older file keeps its mode until a VACUUM).
  sqlite.pragma('secure_delete = ON')
  sqlite.pragma('auto_vacuum = INCREMENTAL')
  // WAL lets readers run beside the single writer. synchronous=NORMAL in WAL mode keeps every committed
  // transaction across a process crash (SIGKILL); only an OS crash or power loss may drop the last few.
  // FULL would fsync on every commit, and better-sqlite3 runs on the event loop, so each fsync would
  // stall every request (measured: 10× lower write throughput; see docs/performance.md).
  sqlite.pragma('journal_mode = WAL')
  sqlite.pragma(`synchronous = ${opts.sqliteSynchronous ?? 'NORMAL'}`)
  sqlite.pragma('busy_timeout = 5000')
  sqlite.pragma('foreign_keys = ON')
  const logger = log('sqlite')
  const cached = withStatementCache(sqlite)
  // An in-memory database has no other connection, and no WAL to checkpoint.
  const thread = path !== ':memory:' ? new SqliteThread(path) : null
  const checkpointer =
    thread && opts.checkpointThread !== false ? new SqliteCheckpointer(sqlite, thread, { ...CHECKPOINTER_DEFAULTS, ...(typeof opts.checkpointThread === 'object' && opts.checkpointThread) }) : null
  const committed = checkpointer ? () => checkpointer.committed() : undefined
  const dialect =
    opts.groupCommit !== undefined && opts.groupCommit !== false
      ? new GroupCommitSqliteDialect(new GroupCommitSqliteDriver(cached, sqlite, { ...GROUP_LIMITS, ...(typeof opts.groupCommit === 'object' && opts.groupCommit) }, logger, committed))
      : new ImmediateSqliteDialect({ database: cached }, committed)
  const db = new Kysely<Tables>({ dialect, log: logger })
  return {
    db,
    engine: 'sqlite',
    schema: null,
    ping: async () => {
      await sql`select 1`.execute(db)
    },
    close: async () => {
      await thread?.close()
      await db.destroy()
    },
    poolStats: () => ({ total: 1, idle: 1, waiting: 0 }),
    thread,
  }
}

/**
 * A group holds at most 32 transactions and stays open at most 5 ms: each COMMIT stays small, and a second
 * process (a worker role, the API log's writer thread) waits at most that long for the write lock.
 */
const GROUP_LIMITS: GroupCommitLimits = { maxMembers: 32, maxOpenMs: 5 }

/** Kysely skips its logging when no logger is given, so a counter is added only when asked for. */
function statementLogger(onStatement: ((sql: string, ms: number) => void) | undefined) {
  return (engine: Engine): ((event: LogEvent) => void) | undefined => {
    const spans = databaseQueryLogger(engine)
    if (!onStatement) return spans
    return (event) => {
      onStatement(event.query.sql, event.queryDurationMillis)
      spans?.(event)
    }
  }
}

/**
 * SQLite transactions begin IMMEDIATE: they take the write lock when they start, waiting for it up to
 * busy_timeout. A deferred BEGIN reads first and asks for the lock at its first write; if another
 * connection (the API log's writer thread) committed in between, that write fails at once with
 * SQLITE_BUSY — the busy handler cannot help a transaction whose snapshot is stale — and a job or request
 * fails for nothing. This process has one connection, so its transactions are serialised anyway; only the
 * log thread waits a few milliseconds more.
 */
class ImmediateSqliteDriver extends SqliteDriver {
  constructor(
    settings: SqliteDialectConfig,
    private readonly committed?: () => void,
  ) {
    super(settings)
  }
  override async beginTransaction(connection: DatabaseConnection): Promise<void> {
    await connection.executeQuery(CompiledQuery.raw('begin immediate'))
  }
  override async commitTransaction(connection: DatabaseConnection): Promise<void> {
    await super.commitTransaction(connection)
    this.committed?.()
  }
}
class ImmediateSqliteDialect extends SqliteDialect {
  constructor(
    private readonly settings: SqliteDialectConfig,
    /** Told of each COMMIT (the checkpoint thread starts once the process writes). */
    private readonly committed?: () => void,
  ) {
    super(settings)
  }
  override createDriver(): Driver {
    return new ImmediateSqliteDriver(this.settings, this.committed)
  }
}

/** Create the schema named in DATABASE_SCHEMA if it does not exist yet (PostgreSQL only). */
export async function ensureSchema(url: string, schema: string | null): Promise<void> {
  if (!schema || !(url.startsWith('postgres://') || url.startsWith('postgresql://'))) return
  if (!/^[a-z_][a-z0-9_]*$/i.test(schema)) throw new Error(`DATABASE_SCHEMA "${schema}" is not a plain identifier`)
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    await client.query(`create schema if not exists "${schema}"`)
  } finally {
    await client.end()
  }
}

export function isUniqueViolation(err: unknown): boolean {
  const e = err as { code?: string; message?: string }
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY'
}

/** JSON columns are TEXT on both engines: portable and byte-exact. */
export const toJson = (v: unknown): string => JSON.stringify(v)
export const fromJson = <T>(v: string | null | undefined, fallback: T): T => (v == null ? fallback : (JSON.parse(v) as T))
