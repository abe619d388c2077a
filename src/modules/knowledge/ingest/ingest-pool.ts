import { Worker } from 'node:worker_threads'
import type { IngestOutcome, IngestTask } from './ingest-task.js'

export interface IngestPoolOptions {
  /** Worker threads at most (KNOWLEDGE_PARSE_THREADS). */
  threads: number
  /** Each thread's V8 heap limit in MB (KNOWLEDGE_PARSE_MEMORY_MB): past it the thread dies, not the process. */
  memoryMb: number
  /** A task running longer than this ends its thread (KNOWLEDGE_PARSE_TIMEOUT_MS). */
  timeoutMs: number
  /** An idle thread ends after this. */
  idleMs?: number
}

// Under tsx (development, tests) the entry is this folder's TypeScript; in the bundle (dist/main.js) the
// build writes it beside main.js as ingest.worker.js (scripts/build.mjs).
const SOURCE = import.meta.url.endsWith('.ts')
const ENTRY = new URL(SOURCE ? './ingest.worker.ts' : './ingest.worker.js', import.meta.url)
const TSX_API = SOURCE ? import.meta.resolve('tsx/esm/api') : ''

interface Slot {
  worker: Worker
  busy: boolean
  idle: NodeJS.Timeout | null
}

/**
 * Worker threads that parse, chunk and analyse documents (ingest-task.ts), so that a 20 MB file costs the
 * API's event loop nothing but the messages. Each thread has a heap limit: a file that needs more kills
 * its thread (the task fails with a readable reason) and the process goes on. Threads start on demand,
 * are reused, and end when idle; tasks beyond `threads` wait their turn.
 */
export class IngestPool {
  private readonly slots = new Set<Slot>()
  private readonly queue: { task: IngestTask; resolve(o: IngestOutcome): void; reject(e: Error): void }[] = []
  private next = 0

  constructor(private readonly opts: IngestPoolOptions) {}

  run(task: IngestTask): Promise<IngestOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ task, resolve, reject })
      this.pump()
    })
  }

  /** Ends every thread (a task still running fails). */
  async close(): Promise<void> {
    await Promise.all([...this.slots].map((s) => s.worker.terminate()))
    this.slots.clear()
  }

  private pump(): void {
    while (this.queue.length > 0) {
      let slot = [...this.slots].find((s) => !s.busy)
      if (!slot && this.slots.size < Math.max(1, this.opts.threads)) slot = this.spawn()
      if (!slot) return
      this.assign(slot, this.queue.shift()!)
    }
  }

  private spawn(): Slot {
    // A thread does not always inherit the process's TypeScript loader (not under the test runner): from the
    // sources, a bootstrap registers tsx first (as bin/svc.mjs does), then loads the entry.
    const bootstrap = `import(${JSON.stringify(TSX_API)}).then((m) => m.register()).then(() => import(${JSON.stringify(ENTRY.href)}))`
    const worker = new Worker(SOURCE ? bootstrap : ENTRY, {
      ...(SOURCE ? { eval: true } : {}),
      resourceLimits: { maxOldGenerationSizeMb: this.opts.memoryMb, maxYoungGenerationSizeMb: Math.min(64, Math.max(8, this.opts.memoryMb / 16)) },
    })
    worker.unref()
    const slot: Slot = { worker, busy: false, idle: null }
    this.slots.add(slot)
    return slot
  }

  private assign(slot: Slot, job: (typeof this.queue)[number]): void {
    slot.busy = true
    if (slot.idle) clearTimeout(slot.idle)
    slot.idle = null
    slot.worker.ref()
    const id = ++this.next
    let settled = false
    const done = (fn: () => void, keep: boolean) => {
      if (settled) return
      settled = true
      clearTimeout(timer)
      slot.worker.off('message', onMessage)
      slot.worker.off('error', onError)
      slot.worker.off('exit', onExit)
      if (keep) {
        slot.busy = false
        slot.worker.unref()
        slot.idle = setTimeout(() => this.retire(slot), this.opts.idleMs ?? 30_000).unref()
      } else this.retire(slot)
      fn()
      this.pump()
    }
    const onMessage = (m: { id: number; outcome?: IngestOutcome; error?: string }) => {
      if (m.id !== id) return
      done(() => (m.outcome ? job.resolve(m.outcome) : job.reject(new Error(m.error ?? 'the ingest worker failed'))), true)
    }
    const onError = (err: Error & { code?: string }) => {
      const message =
        err.code === 'ERR_WORKER_OUT_OF_MEMORY'
          ? `Reading the document needed more than ${this.opts.memoryMb} MB of memory (limit KNOWLEDGE_PARSE_MEMORY_MB): split it into smaller documents.`
          : `The document could not be read: ${err.message}`
      done(() => job.resolve({ ok: false, kind: 'limit', message }), false)
    }
    const onExit = (code: number) => done(() => job.reject(new Error(`the ingest worker exited (code ${code})`)), false)
    const timer = setTimeout(() => {
      const message = `Reading the document took longer than ${Math.round(this.opts.timeoutMs / 1000)} s (limit KNOWLEDGE_PARSE_TIMEOUT_MS): split it into smaller documents.`
      done(() => job.resolve({ ok: false, kind: 'limit', message }), false)
    }, this.opts.timeoutMs)
    slot.worker.on('message', onMessage)
    slot.worker.on('error', onError)
    slot.worker.on('exit', onExit)
    slot.worker.postMessage({ id, task: job.task })
  }

  private retire(slot: Slot): void {
    if (slot.idle) clearTimeout(slot.idle)
    this.slots.delete(slot)
    // `void`: terminate() resolves with the exit code; the 'exit' listener above already handles the thread's end.
    void slot.worker.terminate()
  }
}

const shared = new Map<string, IngestPool>()

/**
 * The process's pool for these options: every app in a process (tests build many) shares its threads, so
 * a thread's start (loading the parsers, and under tsx compiling them) is paid once.
 */
export function ingestPool(opts: IngestPoolOptions): IngestPool {
  const key = JSON.stringify([opts.threads, opts.memoryMb, opts.timeoutMs, opts.idleMs])
  let pool = shared.get(key)
  if (!pool) shared.set(key, (pool = new IngestPool(opts)))
  return pool
}
