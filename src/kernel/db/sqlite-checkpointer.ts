import type SQLite from 'better-sqlite3'
import type { SqliteThread } from './sqlite-thread.js'

/**
 * WAL checkpoints off the event loop (issue 36, docs/performance.md "Checkpoints off the request path").
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past `wal_autocheckpoint` pages
 * (1,000 by default), on the connection that committed: every ~40th sendMessage spent 11–16 ms copying the
 * WAL into the database file and syncing it, on the event loop, and every request queued behind it. Here the
 * database's background thread, with its own connection to the same file, runs a PASSIVE checkpoint every `intervalMs`
 * (a few microseconds when there is nothing to copy). A passive checkpoint waits for no one: writers keep
 * appending while it copies, and a frame still needed by a reader's snapshot waits for the next round. The
 * WAL starts over from its beginning only when a write transaction begins with every frame copied, which under
 * a write load without pauses another connection never achieves: the connection's own automatic checkpoint,
 * raised to `boundPages`, stays as the bound — when it fires, the thread has copied all but the last few frames,
 * so it copies those (a few ms) and the log starts over. If the thread dies the bound goes back to SQLite's
 * default.
 *
 * The checkpoints start at the `startAfterCommits`-th commit: a process that writes little (a test's app, the
 * CLI) never starts the thread for them. The thread is the database's one (sqlite-thread.ts), shared with the
 * API log's writes.
 */

export interface CheckpointerOptions {
  /** How often the thread checkpoints. */
  intervalMs: number
  /** The connection's own automatic checkpoint while the thread runs: the bound on the WAL's size. */
  boundPages: number
  /** Commits before the thread starts. */
  startAfterCommits: number
}

export const CHECKPOINTER_DEFAULTS: CheckpointerOptions = { intervalMs: 50, boundPages: 4000, startAfterCommits: 64 }

/** SQLite's own default for `wal_autocheckpoint`, put back when the thread is gone. */
const SQLITE_DEFAULT_PAGES = 1000

export class SqliteCheckpointer {
  #commits = 0
  #started = false
  /** Set when the thread could not start or died: the connection checkpoints by itself again. */
  failed: Error | null = null

  constructor(
    private readonly connection: SQLite.Database,
    private readonly thread: SqliteThread,
    private readonly options: CheckpointerOptions = CHECKPOINTER_DEFAULTS,
  ) {
    thread.onFailure((err) => this.#fail(err))
  }

  /** Whether the thread checkpoints. */
  get running(): boolean {
    return this.#started && this.failed === null && this.thread.running
  }

  /** Called after each COMMIT on the connection. */
  committed(): void {
    if (this.#started || this.failed || ++this.#commits < this.options.startAfterCommits) return
    this.#started = true
    try {
      this.thread.checkpointEvery(this.options.intervalMs)
      this.connection.pragma(`wal_autocheckpoint = ${this.options.boundPages}`)
    } catch (err) {
      this.#fail(err as Error)
    }
  }

  #fail(err: Error): void {
    this.failed = err
    try {
      if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`)
    } catch {
      // The connection is closing: nothing left to bound.
    }
  }
}
