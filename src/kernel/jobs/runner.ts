import { bindAudit, type AuditScope } from '../audit/audit.js'
import { hostname } from 'node:os'
import type { Logger } from 'pino'
import type { Clock } from '../clock.js'
import type { Database } from '../db/database.js'
import { randomToken } from '../ids.js'
import { claimExhaustedJobs, claimJobs, completeJob, deadLetterJob, failJob, leaseExhaustedError, leaseOf, releaseJob, type ClaimedJob, type JobContext, type JobDefinition } from './jobs.js'
import { markActiveSpanFailed, withJobSpan } from '../tracing/tracing.js'

export interface RunnerOptions {
  concurrency: number
  pollIntervalMs: number
  /** A claim older than this is presumed dead and taken over (at-least-once). */
  leaseSeconds: number
}

export interface JobObserver {
  onJobFinished?(name: string, outcome: 'succeeded' | 'retry' | 'failed', seconds: number): void
}

/**
 * Polls the jobs table, claims due jobs with a lease and runs them. Several runners (processes) on one
 * PostgreSQL share the table safely; `wake()` lets an in-process enqueue skip the poll delay.
 */
export class JobRunner {
  readonly workerId = `${hostname()}:${process.pid}:${randomToken(6)}`
  private readonly defs = new Map<string, JobDefinition>()
  private readonly inFlight = new Map<string, Promise<void>>()
  private timer: NodeJS.Timeout | null = null
  private immediate: NodeJS.Immediate | null = null
  private running = false
  private polling = false
  private pollAgain = false

  constructor(
    private readonly database: Database,
    private readonly clock: Clock,
    private readonly log: Logger,
    private readonly opts: RunnerOptions,
    private readonly observer: JobObserver = {},
  ) {}

  register(def: JobDefinition): void {
    if (this.defs.has(def.name)) throw new Error(`job ${def.name} registered twice`)
    this.defs.set(def.name, def)
  }

  get definitions(): ReadonlyMap<string, JobDefinition> {
    return this.defs
  }

  start(): void {
    if (this.running) return
    this.running = true
    this.schedule(0)
  }

  /** Poll soon: called after a transaction that enqueued work commits. */
  wake(): void {
    if (!this.running) return
    if (this.polling) {
      this.pollAgain = true
      return
    }
    this.schedule(0)
  }

  /** Stop claiming; wait up to `timeoutMs` for running jobs, then hand the rest of their leases back. */
  async stop(timeoutMs: number): Promise<void> {
    this.running = false
    if (this.timer) clearTimeout(this.timer)
    if (this.immediate) clearImmediate(this.immediate)
    this.timer = null
    this.immediate = null
    const all = Promise.allSettled([...this.inFlight.values()])
    let timedOut = false
    await Promise.race([all, new Promise((r) => setTimeout(() => ((timedOut = true), r(null)), timeoutMs).unref())])
    if (timedOut) {
      for (const id of this.inFlight.keys()) {
        await releaseJob(this.database.db, this.clock, id, this.workerId).catch(() => {})
      }
    }
  }

  /** Run every due job until none is left (tests and the CLI use this instead of the timer). */
  async drain(maxRounds = 1000): Promise<number> {
    let total = 0
    for (let i = 0; i < maxRounds; i++) {
      const jobs = await this.claim(this.opts.concurrency)
      if (jobs.length === 0) break
      total += jobs.length
      await Promise.all(jobs.map((j) => this.execute(j)))
    }
    return total
  }

  private schedule(ms: number): void {
    if (!this.running) return
    if (this.timer) clearTimeout(this.timer)
    this.timer = null
    // "Now" is the next turn of the event loop, not a timer: setTimeout(0) waits at least a millisecond,
    // and a busy runner polls after every batch of finished jobs. `void`: poll() catches and logs its own failures.
    if (ms === 0) {
      this.immediate ??= setImmediate(() => {
        this.immediate = null
        void this.poll()
      })
    } else if (!this.immediate) {
      this.timer = setTimeout(() => void this.poll(), ms)
    }
  }

  private lastExpiredScan = 0

  private async claim(n: number): Promise<ClaimedJob[]> {
    if (n <= 0) return []
    const { db, engine } = this.database
    const jobs = await claimJobs(db, engine, this.clock, this.workerId, n, this.opts.leaseSeconds)
    // Expired leases (a crashed worker) are rare: look for them at most once a second.
    const now = Date.now()
    if (jobs.length < n && now - this.lastExpiredScan >= 1000) {
      this.lastExpiredScan = now
      jobs.push(...(await claimJobs(db, engine, this.clock, this.workerId, n - jobs.length, this.opts.leaseSeconds, true)))
      // Those that died on their last attempt are not run again: dead-lettered (awaited here, they are cheap).
      for (const job of await claimExhaustedJobs(db, engine, this.clock, this.workerId, 100, this.opts.leaseSeconds)) await this.deadLetter(job)
    }
    return jobs
  }

  /**
   * A job whose lease expired on its last attempt: the process running it died (or stalled) every time, so
   * running it again would only do that again. Its module is told (onExhausted), then the job is failed with
   * the reason. If telling the module fails, the lease is left to expire and the next takeover tries again.
   */
  private async deadLetter(job: ClaimedJob): Promise<void> {
    const def = this.defs.get(job.name)
    const error = leaseExhaustedError(job.attempts)
    const lease = leaseOf(job, this.workerId)
    try {
      await def?.onExhausted?.(JSON.parse(job.payload), exhausted(job, error, true))
    } catch (err) {
      this.log.error({ err, job: job.name, jobId: job.id }, 'could not report a dead-lettered job to its module; retried after the lease')
      return
    }
    if (await deadLetterJob(this.database.db, this.clock, lease, error)) {
      this.log.error({ job: job.name, jobId: job.id, attempts: job.attempts }, 'job dead-lettered: its lease expired on its last attempt')
      this.observer.onJobFinished?.(job.name, 'failed', 0)
    }
  }

  private async poll(): Promise<void> {
    if (!this.running || this.polling) return
    this.polling = true
    this.pollAgain = false
    let claimed = 0
    try {
      const jobs = await this.claim(this.opts.concurrency - this.inFlight.size)
      claimed = jobs.length
      for (const job of jobs) {
        // Nobody awaits a running job until stop(): a rejection (recording the outcome of a job without a
        // handler failed: the database is down) is logged here, and the lease expires, instead of an unhandled
        // rejection ending the process.
        const p = this.execute(job)
          .catch((err: unknown) => this.log.error({ err, job: job.name, jobId: job.id }, 'job run failed outside its handler; the lease will expire'))
          .finally(() => {
            this.inFlight.delete(job.id)
            // A slot freed up: look for more work right away.
            this.wake()
          })
        this.inFlight.set(job.id, p)
      }
    } catch (err) {
      this.log.error({ err }, 'job claim failed')
    } finally {
      this.polling = false
    }
    const busy = claimed > 0 || this.pollAgain
    this.schedule(busy && this.inFlight.size < this.opts.concurrency ? 0 : this.opts.pollIntervalMs)
  }

  /** A run under a span continuing the trace that enqueued the job (kernel/tracing; a plain call when off). */
  private execute(job: ClaimedJob): Promise<void> {
    return withJobSpan(job, () => this.executeJob(job))
  }

  private async executeJob(job: ClaimedJob): Promise<void> {
    const started = performance.now()
    const def = this.defs.get(job.name)
    const finish = (outcome: 'succeeded' | 'retry' | 'failed') => this.observer.onJobFinished?.(job.name, outcome, (performance.now() - started) / 1000)
    if (!def) {
      // Another version of the binary may know this job; leave it for them after the lease.
      const outcome = await failJob(this.database.db, this.clock, job, this.workerId, `no handler for job ${job.name}`)
      finish(outcome)
      return
    }
    const lease = leaseOf(job, this.workerId)
    // Changes a job makes are the system's, named by the job: its context is the owner its transactions are
    // made for, directly or through a tenant inheriting it (kernel/audit).
    const ctx: JobContext = bindAudit({ jobId: job.id, attempt: job.attempts, lease }, systemScope(job.name))
    try {
      await def.run(JSON.parse(job.payload), ctx)
      // A handler may have completed the job in the transaction of its effect already.
      if (!ctx.completed) await completeJob(this.database.db, this.clock, lease)
      finish('succeeded')
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err)
      markActiveSpanFailed(err)
      try {
        // The last attempt: the module hears of it before the job is failed (a crash in between: the
        // takeover dead-letters it and tells the module again).
        if (job.attempts >= job.max_attempts && def.onExhausted) {
          await def.onExhausted(JSON.parse(job.payload), exhausted(job, message, false))
        }
        const outcome = await failJob(this.database.db, this.clock, job, this.workerId, message, ctx.retryAt)
        this.log.warn({ job: job.name, jobId: job.id, attempt: job.attempts, outcome, err: message }, 'job attempt failed')
        finish(outcome)
      } catch (e) {
        this.log.error({ err: e, jobId: job.id }, 'could not record job failure; the lease will expire')
      }
    }
  }
}

const systemScope = (action: string): AuditScope => ({ actor: { type: 'system', id: null }, action })
/** What a module's onExhausted hears of its job's last attempt, its changes audited as the job's. */
const exhausted = (job: ClaimedJob, error: string, leaseExpired: boolean) => bindAudit({ jobId: job.id, attempts: job.attempts, error, leaseExpired }, systemScope(job.name))
