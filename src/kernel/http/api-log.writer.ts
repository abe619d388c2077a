import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import { STATEMENT_KEYS, statementText, type Statement } from './api-log.store.js'

/**
 * On SQLite the request log is written by a thread of its own, with its own connection to the same file:
 * better-sqlite3 runs on the calling thread, so writing a second's worth of rows (~12 µs each: the row and
 * its indexes) on the event loop would take that time from every request. The event loop only builds the
 * statements and posts them (~3 µs a row). WAL lets requests read while the thread writes; a request that
 * writes while the thread holds the write lock waits for it (busy_timeout), so the thread commits every
 * 256 rows (a few ms) rather than holding the lock for a whole flush.
 *
 * The thread's code is inline (eval) so that the one-file bundle (dist/main.js) needs no second entry
 * point; it loads the same better-sqlite3 the service resolved.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file)
db.pragma('journal_mode = WAL')
db.pragma('synchronous = NORMAL')
db.pragma('busy_timeout = 5000')
const statements = new Map()
const prepared = (key) => {
  let s = statements.get(key)
  if (!s) statements.set(key, (s = db.prepare(workerData.texts[key])))
  return s
}
parentPort.on('message', ({ id, transactions }) => {
  let committedRows = 0
  try {
    for (const t of transactions) {
      db.transaction(() => { for (const s of t.statements) prepared(s.key).run(s.params) }).immediate()
      committedRows += t.rows
    }
    parentPort.postMessage({ id })
  } catch (err) {
    parentPort.postMessage({ id, error: String((err && err.message) || err), committedRows })
  }
})
`

/** A failed write: `committedRows` log rows (the first ones, with the whole flush's rollups) are in the database. */
export class PartialWriteError extends Error {
  constructor(
    message: string,
    readonly committedRows: number,
  ) {
    super(message)
  }
}

/** Rows per transaction of the writer thread: the write lock is held a few milliseconds at a time. */
const ROWS_PER_TRANSACTION = 256

export class SqliteLogWriter {
  private worker: Worker | null = null
  private next = 0
  private readonly waiting = new Map<number, { resolve(): void; reject(err: Error): void }>()
  /** Set when the thread could not start or died: the caller writes on its own connection instead. */
  failed: Error | null = null

  constructor(private readonly file: string) {}

  private start(): Worker {
    const texts = Object.fromEntries(STATEMENT_KEYS.map((k) => [k, statementText('sqlite', k)]))
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const w = new Worker(WORKER, { eval: true, workerData: { file: this.file, driver, texts } })
    // Never what keeps the process alive: close() ends it after the last flush.
    w.unref()
    w.on('message', (m: { id: number; error?: string; committedRows?: number }) => {
      const p = this.waiting.get(m.id)
      this.waiting.delete(m.id)
      if (m.error) p?.reject(new PartialWriteError(m.error, m.committedRows ?? 0))
      else p?.resolve()
    })
    const fail = (err: Error) => {
      this.failed = err
      this.worker = null
      for (const p of this.waiting.values()) p.reject(err)
      this.waiting.clear()
    }
    w.on('error', fail)
    w.on('exit', (code) => {
      if (this.worker === w) fail(new Error(`the API log writer thread exited (${code})`))
    })
    return w
  }

  /**
   * Writes one flush (statements in flushStatements' order: the rows in entry order, then the rollups) in
   * transactions of at most ROWS_PER_TRANSACTION rows. The rollups go with the first, so that a failure
   * after it leaves a known state: the first `committedRows` rows and every entry's counts are written.
   */
  write(statements: Statement[]): Promise<void> {
    this.worker ??= this.start()
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
    const id = this.next++
    return new Promise<void>((resolve, reject) => {
      this.waiting.set(id, { resolve, reject })
      this.worker!.postMessage({ id, transactions })
    })
  }

  async close(): Promise<void> {
    const w = this.worker
    this.worker = null
    if (w) await w.terminate()
  }
}
