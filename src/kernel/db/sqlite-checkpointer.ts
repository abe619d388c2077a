import { createRequire } from 'node:module'
import { Worker } from 'node:worker_threads'
import type SQLite from 'better-sqlite3'

/**
 * WAL checkpoints off the event loop (issue 36, docs/performance.md "Checkpoints off the request path").
 *
 * SQLite's automatic checkpoint runs inside the COMMIT that takes the WAL past `wal_autocheckpoint` pages
 * (1,000 by default), on the connection that committed: every ~40th sendMessage spent 11–16 ms copying the
 * WAL into the database file and syncing it, on the event loop, and every request queued behind it. Here a
 * thread of its own, with its own connection to the same file, runs a PASSIVE checkpoint every `intervalMs`
 * (a few microseconds when there is nothing to copy). A passive checkpoint waits for no one: writers keep
 * appending while it copies, and a frame still needed by a reader's snapshot waits for the next round. The
 * next write transaction that finds the whole WAL copied starts it over from its beginning, so the WAL stays
 * small and the connection's own automatic checkpoint — still there, raised to `boundPages` — is only the
 * bound if the thread falls behind or dies (then it goes back to SQLite's default).
 *
 * The thread starts at the `startAfterCommits`-th commit: a process that writes little (a test's app, the
 * CLI) never pays for one. Its code is inline (eval), as the API log writer's, so that the one-file bundle
 * needs no second entry point.
 */
const WORKER = `
const { parentPort, workerData } = require('node:worker_threads')
const Database = require(workerData.driver)
const db = new Database(workerData.file, { fileMustExist: true })
// Never wait for a lock: a busy round is simply the next one.
db.pragma('busy_timeout = 0')
db.pragma('synchronous = NORMAL')
let failures = 0
// A round copies the frames committed before it began, and syncs the WAL and the database file; frames
// committed meanwhile are copied by another round at once (smaller, so quicker), up to a few: the WAL starts
// over only when a write transaction begins with every frame copied.
const round = () => {
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
const timer = setInterval(round, workerData.intervalMs)
parentPort.on('message', (m) => {
  if (m !== 'close') return
  clearInterval(timer)
  db.close()
  parentPort.close()
})
`

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
  #worker: Worker | null = null
  #commits = 0
  #closed = false
  /** Set when the thread could not start or died: the connection checkpoints by itself again. */
  failed: Error | null = null

  constructor(
    private readonly connection: SQLite.Database,
    private readonly file: string,
    private readonly options: CheckpointerOptions = CHECKPOINTER_DEFAULTS,
  ) {}

  /** Whether the thread is running. */
  get running(): boolean {
    return this.#worker !== null
  }

  /** Called after each COMMIT on the connection. */
  committed(): void {
    if (this.#worker || this.#closed || this.failed || ++this.#commits < this.options.startAfterCommits) return
    try {
      this.#start()
    } catch (err) {
      this.#fail(err as Error)
    }
  }

  #start(): void {
    const driver = createRequire(import.meta.url).resolve('better-sqlite3')
    const w = new Worker(WORKER, { eval: true, workerData: { file: this.file, driver, intervalMs: this.options.intervalMs } })
    // Never what keeps the process alive.
    w.unref()
    w.on('error', (err) => this.#fail(err))
    w.on('exit', (code) => {
      if (this.#worker === w && !this.#closed) this.#fail(new Error(`the SQLite checkpoint thread exited (${code})`))
    })
    this.#worker = w
    this.connection.pragma(`wal_autocheckpoint = ${this.options.boundPages}`)
  }

  #fail(err: Error): void {
    this.failed = err
    this.#worker = null
    try {
      if (this.connection.open) this.connection.pragma(`wal_autocheckpoint = ${SQLITE_DEFAULT_PAGES}`)
    } catch {
      // The connection is closing: nothing left to bound.
    }
  }

  /** Ends the thread (its connection closed) before the caller closes its own. */
  async close(): Promise<void> {
    this.#closed = true
    const w = this.#worker
    this.#worker = null
    if (!w) return
    const exited = new Promise<void>((resolve) => w.once('exit', () => resolve()))
    w.postMessage('close')
    // A thread stuck in a checkpoint (a slow disk) is not waited for past a second.
    const timer = setTimeout(() => void w.terminate(), 1000)
    await exited
    clearTimeout(timer)
  }
}
