import type { FastifyRequest } from 'fastify'
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client'
import { primaryChannel } from './cluster/cluster-channel.js'
import { AppError } from './errors.js'
import { queueStats } from './jobs/jobs.js'
import type { Kernel } from './kernel.js'
import type { Services } from './services.js'

/** A gauge a module reports at scrape time (e.g. webhook deliveries by status). */
export interface ModuleGauge {
  name: string
  help: string
  labelNames: string[]
  values: { labels: Record<string, string>; value: number }[]
}

/**
 * Prometheus metrics through prom-client: request counts and latency per operationId and status,
 * job queue depth and age, job outcomes, database pool use, plus gauges modules report.
 *
 * Two registries: `registry` holds what this process counts (requests, jobs, its pool, its memory), which
 * the processes of a cluster (WEB_CONCURRENCY > 1) sum through the primary; `shared` holds what is read
 * from the database at scrape time (queue depth, module gauges), the same whichever process reads it, so
 * only the process serving the scrape computes it.
 */
const UNMATCHED = {}

export class Metrics {
  readonly registry = new Registry()
  private readonly shared = new Registry()
  private readonly requests: Counter<'operation_id' | 'method' | 'status'>
  private readonly latency: Histogram<'operation_id' | 'method' | 'status'>
  private readonly jobs: Counter<'job' | 'outcome'>
  private readonly jobSeconds: Histogram<'job'>
  private kernel: Kernel | null = null
  private services: Services | null = null
  private readonly moduleGauges = new Map<string, Gauge<string>>()

  constructor() {
    collectDefaultMetrics({ register: this.registry, prefix: 'svc_' })
    this.requests = new Counter({ name: 'svc_http_requests_total', help: 'HTTP requests by operation and status', labelNames: ['operation_id', 'method', 'status'], registers: [this.registry] })
    this.latency = new Histogram({
      name: 'svc_http_request_duration_seconds',
      help: 'HTTP request latency by operation and status',
      labelNames: ['operation_id', 'method', 'status'],
      buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
      registers: [this.registry],
    })
    this.jobs = new Counter({ name: 'svc_jobs_finished_total', help: 'Job attempts by job name and outcome (succeeded, retry, failed)', labelNames: ['job', 'outcome'], registers: [this.registry] })
    this.jobSeconds = new Histogram({
      name: 'svc_job_duration_seconds',
      help: 'Job attempt duration',
      labelNames: ['job'],
      buckets: [0.005, 0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60],
      registers: [this.registry],
    })
    const self = this
    new Gauge({
      name: 'svc_job_queue_depth',
      help: 'Jobs by status (pending, running, failed)',
      labelNames: ['status'],
      registers: [this.shared],
      async collect() {
        if (!self.kernel) return
        const s = await queueStats(self.kernel.db, self.kernel.clock)
        this.set({ status: 'pending' }, s.pending)
        this.set({ status: 'running' }, s.running)
        this.set({ status: 'failed' }, s.failed)
        ageGauge.set(s.oldestDueAgeSeconds)
      },
    })
    const ageGauge = new Gauge({ name: 'svc_job_queue_oldest_due_age_seconds', help: 'Age of the oldest due pending job', registers: [this.shared] })
    // The API request log's buffer (kernel/http/api-log.ts): entries waiting, and those lost while the database was down.
    new Gauge({
      name: 'svc_api_logs_pending',
      help: 'API log entries buffered in memory, not yet written',
      registers: [this.registry],
      collect() {
        if (self.kernel) this.set(self.kernel.apiLogs.pending)
      },
    })
    new Counter({
      name: 'svc_api_logs_dropped_total',
      help: 'API log entries dropped, oldest first, because the buffer was full while the database could not take them',
      registers: [this.registry],
      collect() {
        if (!self.kernel) return
        this.reset()
        this.inc(self.kernel.apiLogs.dropped)
      },
    })
    new Gauge({
      name: 'svc_db_pool_connections',
      help: 'Database pool connections by state (total, idle, waiting clients)',
      labelNames: ['state'],
      registers: [this.registry],
      collect() {
        if (!self.kernel) return
        const p = self.kernel.database.poolStats()
        this.set({ state: 'total' }, p.total)
        this.set({ state: 'idle' }, p.idle)
        this.set({ state: 'waiting' }, p.waiting)
      },
    })
  }

  attach(kernel: Kernel, services: Services): void {
    this.kernel = kernel
    this.services = services
    primaryChannel?.handle('metrics:collect', async () => ({ metrics: await this.registry.getMetricsAsJSON() }))
  }

  /** Label sets per route and status, made once: a request allocates none. */
  private readonly labelSets = new WeakMap<object, Map<string, Record<string, string>>>()

  observeRequest(request: FastifyRequest, status: number, seconds: number): void {
    const route = request.routeOptions.config ?? UNMATCHED
    let byStatus = this.labelSets.get(route)
    if (!byStatus) this.labelSets.set(route, (byStatus = new Map()))
    const key = request.method + status
    let labels = byStatus.get(key)
    if (!labels) {
      labels = { operation_id: request.routeOptions.config?.operationId ?? (request.routeOptions.url ? 'internal' : 'unmatched'), method: request.method, status: String(status) }
      byStatus.set(key, labels)
    }
    this.requests.inc(labels)
    this.latency.observe(labels, seconds)
  }

  observeJob(name: string, outcome: string, seconds: number): void {
    this.jobs.inc({ job: name, outcome })
    this.jobSeconds.observe({ job: name }, seconds)
  }

  async render(): Promise<string> {
    if (this.kernel) {
      for (const m of this.kernel.modules) {
        if (!m.metrics) continue
        // One module's failing query must not take the whole scrape down.
        const gauges = await m.metrics(this.kernel, this.services!).catch((err) => {
          this.kernel?.log.warn({ err, module: m.name }, 'module metrics failed')
          return []
        })
        for (const g of gauges) {
          let gauge = this.moduleGauges.get(g.name)
          if (!gauge) {
            gauge = new Gauge({ name: g.name, help: g.help, labelNames: g.labelNames, registers: [this.shared] })
            this.moduleGauges.set(g.name, gauge)
          }
          gauge.reset()
          for (const v of g.values) gauge.set(v.labels, v.value)
        }
      }
    }
    return `${await this.counted()}\n${await this.shared.metrics()}`
  }

  /** What the processes count: this one's registry, or in a cluster every process's summed by the primary. */
  private async counted(): Promise<string> {
    if (!primaryChannel) return this.registry.metrics()
    try {
      return String((await primaryChannel.request('metrics', {})).text)
    } catch (err) {
      // The scrape fails (503): one process's counters alone would read as a reset.
      throw new AppError('service_unavailable', `The processes' metrics could not be gathered: ${(err as Error).message}`)
    }
  }
}
