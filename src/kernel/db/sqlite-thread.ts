import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'

/**
 * One thread per SQLite file and process, with its own connection, for the database work that must not run on
 * the event loop (better-sqlite3 runs on the calling thread): the WAL checkpoints (sqlite-checkpointer.ts) and
 * the API log's batches (kernel/http/api-log.writer.ts). One thread, not one each: a Node worker is a V8 isolate
 * of its own, ~10 MB of resident memory (measured: 48 → 59 MB for one that opens the file).
 *
 * It starts at its first use. Its code is inline (eval) so that the one-file bundle (dist/main.js) needs no
 * second entry point; it loads the same better-sqlite3 the service resolved.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { fileMustExist: true })
db.pragma('synchronous = NORMAL')
// A log batch waits for the write lock like any writer; a PASSIVE checkpoint never waits (SQLite gives it no
// busy handler): a busy round is simply the next one.
db.pragma('busy_timeout = 5000')

const statements = new Map()
let texts = {}
const prepared = (key) => {
  let s = statements.get(key)
  if (!s) statements.set(key, (s = db.prepare(texts[key])))
  return s
}

// A round copies the frames committed before it began, and syncs the WAL and the database file; frames
// committed meanwhile are copied by another round at once (smaller, so quicker), up to a few: the WAL starts
// over only when a write transaction begins with every frame copied.
let failures = 0
const checkpoint = () => {
  try {
    for (let i = 0; i < 8; i++) {
      const r = db.pragma('wal_checkpoint(PASSIVE)')[0]
      if (r.busy || r.log <= r.checkpointed) break
    }
    failures = 0
  } catch (err) {
    // SQLITE_BUSY (another checkpoint runs: the connection's own, or another process's) is normal.
    if (err && err.code === 'SQLITE_BUSY') return
    if (++failures >= 10) throw err
  }
}
let timer = null

parentPort.on('message', (m) => {
  if (m.type === 'checkpoint') {
    if (timer) clearInterval(timer)
    timer = setInterval(checkpoint, m.intervalMs)
  } else if (m.type === 'statements') {
    texts = { ...texts, ...m.texts }
  } else if (m.type === 'write') {
    let committedRows = 0
    try {
      for (const t of m.transactions) {
        db.transaction(() => { for (const s of t.statements) prepared(s.key).run(s.params) }).immediate()
        committedRows += t.rows
      }
      parentPort.postMessage({ id: m.id })
    } catch (err) {
      parentPort.postMessage({ id: m.id, error: String((err && err.message) || err), committedRows })
    }
  } else if (m.type === 'close') {
    if (timer) clearInterval(timer)
    db.close()
    parentPort.close()
  }
})
`

/** A write that failed in the thread: `committedRows` rows of its first transactions are in the database. */
export class ThreadWriteError extends Error {
  constructor(
    message: string,
    readonly committedRows: number,
  ) {
    super(message)
  }
}

export interface ThreadStatement {
  key: string
  params: unknown[]
}

export class SqliteThread {
  #worker: Worker | null = null
  #next = 0
  #closed = false
  readonly #waiting = new Map<number, { resolve(): void; reject(err: Error): void }>()
  readonly #onFailure: ((err: Error) => void)[] = []
  /** Set when the thread could not start or died; its users then do their work on the service's connection. */
  failed: Error | null = null

  constructor(private readonly file: string) {}

  get running(): boolean {
    return this.#worker !== null
  }

  /** Told once if the thread fails (the checkpointer gives the connection its own checkpoints back). */
  onFailure(listener: (err: Error) => void): void {
    this.#onFailure.push(listener)
  }

  #started(): Worker {
    if (this.#worker) return this.#worker
    if (this.failed) throw this.failed
    if (this.#closed) throw new Error('the SQLite thread is closed')
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const w = new Worker(WORKER, { eval: true, workerData: { file: this.file, driver } })
    // Never what keeps the process alive: the database's close() ends it.
    w.unref()
    w.on('message', (m: { id: number; error?: string; committedRows?: number }) => {
      const p = this.#waiting.get(m.id)
      this.#waiting.delete(m.id)
      if (m.error) p?.reject(new ThreadWriteError(m.error, m.committedRows ?? 0))
      else p?.resolve()
    })
    w.on('error', (err) => this.#fail(w, err))
    w.on('exit', (code) => this.#fail(w, new Error(`the SQLite thread exited (${code})`)))
    this.#worker = w
    return w
  }

  #fail(w: Worker, err: Error): void {
    if (this.#worker !== w || this.#closed) return
    this.#worker = null
    this.failed = err
    for (const p of this.#waiting.values()) p.reject(err)
    this.#waiting.clear()
    for (const listener of this.#onFailure) listener(err)
  }

  /** PASSIVE checkpoints every `intervalMs` from now on (starts the thread). */
  checkpointEvery(intervalMs: number): void {
    this.#started().postMessage({ type: 'checkpoint', intervalMs })
  }

  /** Statement texts by key, for later writes (kept by the thread). */
  prepare(texts: Record<string, string>): void {
    this.#started().postMessage({ type: 'statements', texts })
  }

  /** Runs each transaction's statements (prepared keys) in turn, each in `BEGIN IMMEDIATE … COMMIT`. */
  write(transactions: { rows: number; statements: ThreadStatement[] }[]): Promise<void> {
    const w = this.#started()
    const id = this.#next++
    return new Promise<void>((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject })
      w.postMessage({ type: 'write', id, transactions })
    })
  }

  /** Ends the thread (its connection closed) before the caller closes its own. */
  async close(): Promise<void> {
    this.#closed = true
    const w = this.#worker
    this.#worker = null
    if (!w) return
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()))
    w.postMessage({ type: 'close' })
    // A thread stuck in a checkpoint or a batch (a slow disk) is not waited for past a few seconds.
    const timer = setTimeout(() => void w.terminate(), 5000)
    await exited
    clearTimeout(timer)
  }
}
