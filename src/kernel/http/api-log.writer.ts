import type { SqliteThread } from '../db/sqlite-thread.js'
import { STATEMENT_KEYS, statementText, type Statement } from './api-log.store.js'

/**
 * On SQLite the request log is written by the database's thread (kernel/db/sqlite-thread.ts), with its own
 * connection to the same file: better-sqlite3 runs on the calling thread, so writing a second's worth of rows
 * (~12 µs each: the row and its indexes) on the event loop would take that time from every request. The event
 * loop only builds the statements and posts them (~3 µs a row). WAL lets requests read while the thread writes;
 * a request that writes while the thread holds the write lock waits for it (busy_timeout), so the thread
 * commits every 256 rows (a few ms) rather than holding the lock for a whole flush.
 */

/** Rows per transaction of the writer thread: the write lock is held a few milliseconds at a time. */
const ROWS_PER_TRANSACTION = 256

export class SqliteLogWriter {
  private prepared = false

  constructor(private readonly thread: SqliteThread) {}

  /** Set when the thread could not start or died: the caller writes on its own connection instead. */
  get failed(): Error | null {
    return this.thread.failed
  }

  /**
   * Writes one flush (statements in flushStatements' order: the rows in entry order, then the rollups) in
   * transactions of at most ROWS_PER_TRANSACTION rows. The rollups go with the first, so that a failure
   * after it leaves a known state: the first `committedRows` rows and every entry's counts are written.
   */
  write(statements: Statement[]): Promise<void> {
    if (!this.prepared) {
      this.thread.prepare(Object.fromEntries(STATEMENT_KEYS.map((k) => [k, statementText('sqlite', k)])))
      this.prepared = true
    }
    const logs = statements.filter((s) => s.key.startsWith('api_logs:'))
    const rollups = statements.filter((s) => !s.key.startsWith('api_logs:'))
    const transactions: { rows: number; statements: Statement[] }[] = [{ rows: 0, statements: [...rollups] }]
    for (const s of logs) {
      const n = Number(s.key.split(':')[1])
      let t = transactions[transactions.length - 1]
      if (t.rows > 0 && t.rows + n > ROWS_PER_TRANSACTION) transactions.push((t = { rows: 0, statements: [] }))
      t.statements.push(s)
      t.rows += n
    }
    return this.thread.write(transactions)
  }
}
