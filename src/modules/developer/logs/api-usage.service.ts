import { AppError } from '../../../kernel/errors.js'
import { bucketUpperMs } from '../../../kernel/http/api-log.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Tenant } from '../../../kernel/tenant.js'
import * as repo from './logs.repository.js'
import { MAX_USAGE_DAYS, STATUS_CLASSES, type ApiUsageQueryT, type ApiUsageT, type StatusClass } from './logs.schemas.js'

const DAY_MS = 86_400_000
type Classes = ApiUsageT['status_classes']
const noClasses = (): Classes => ({ '1xx': 0, '2xx': 0, '3xx': 0, '4xx': 0, '5xx': 0 })
const classOf = (c: number): StatusClass | null => STATUS_CLASSES[c - 1] ?? null

/**
 * GET /usage: read from the per-day rollups the request log writes with its rows (kernel/http/api-log.store.ts),
 * not from the rows themselves — a 90-day report costs the same whatever the traffic, and outlives the rows'
 * retention until the same policy purges the rollups.
 */
export class ApiUsageService {
  constructor(private readonly k: Kernel) {}

  async usage(tenant: Tenant, q: ApiUsageQueryT): Promise<ApiUsageT> {
    const { from, to } = this.period(q)
    await this.k.apiLogs.flush()
    const [rows, buckets] = await Promise.all([repo.usageDays(this.k.db, tenant, from, to), repo.latencyBuckets(this.k.db, tenant, from, to)])

    const days = new Map<string, { requests: number; classes: Classes; ops: Map<string, number>; keys: Map<string, number> }>()
    for (let t = Date.parse(from); t <= Date.parse(to); t += DAY_MS) days.set(new Date(t).toISOString().slice(0, 10), { requests: 0, classes: noClasses(), ops: new Map(), keys: new Map() })
    const total = { requests: 0, classes: noClasses() }
    const ops = new Map<string, { requests: number; errors: number }>()
    for (const r of rows) {
      const d = days.get(r.day)
      const cls = classOf(r.status_class)
      if (!d || !cls) continue
      d.requests += r.count
      d.classes[cls] += r.count
      d.ops.set(r.operation_id, (d.ops.get(r.operation_id) ?? 0) + r.count)
      d.keys.set(r.key_id, (d.keys.get(r.key_id) ?? 0) + r.count)
      total.requests += r.count
      total.classes[cls] += r.count
      const o = ops.get(r.operation_id) ?? { requests: 0, errors: 0 }
      o.requests += r.count
      if (r.status_class >= 4) o.errors += r.count
      ops.set(r.operation_id, o)
    }

    const histograms = new Map<string, { bucket: number; n: number }[]>()
    for (const b of buckets) {
      const h = histograms.get(b.operation_id) ?? []
      h.push(b)
      histograms.set(b.operation_id, h)
    }
    return {
      object: 'api_usage',
      livemode: tenant.mode === 'live',
      from,
      to,
      requests: total.requests,
      status_classes: total.classes,
      days: [...days].map(([date, d]) => ({
        date,
        requests: d.requests,
        status_classes: d.classes,
        operations: ranked(d.ops).map(([op, n]) => ({ operation_id: op || null, requests: n })),
        keys: ranked(d.keys).map(([key, n]) => ({ key_id: key || null, requests: n })),
      })),
      operations: ranked(new Map([...ops].map(([op, o]) => [op, o.requests]))).map(([op]) => {
        const h = histograms.get(op) ?? []
        return { operation_id: op || null, requests: ops.get(op)!.requests, errors: ops.get(op)!.errors, p50_ms: percentile(h, 0.5), p95_ms: percentile(h, 0.95) }
      }),
    }
  }

  /** `from`..`to` in UTC days, inclusive: default the last 7 days, at most MAX_USAGE_DAYS. */
  private period(q: ApiUsageQueryT): { from: string; to: string } {
    const to = q.to ?? this.k.clock.now().toISOString().slice(0, 10)
    const from = q.from ?? new Date(Date.parse(to) - 6 * DAY_MS).toISOString().slice(0, 10)
    const span = (Date.parse(to) - Date.parse(from)) / DAY_MS + 1
    if (Number.isNaN(span) || span < 1) {
      throw new AppError('validation_failed', '`from` must be on or before `to`.', { errors: [{ pointer: '/query/from', detail: 'must be on or before to' }] })
    }
    if (span > MAX_USAGE_DAYS) {
      throw new AppError('validation_failed', `The period may span at most ${MAX_USAGE_DAYS} days; it spans ${span}.`, {
        errors: [{ pointer: '/query/from', detail: `period longer than ${MAX_USAGE_DAYS} days` }],
      })
    }
    return { from, to }
  }
}

/** Most first, then by name: a stable order for equal counts. */
function ranked(m: Map<string, number>): [string, number][] {
  return [...m].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
}

/**
 * The nearest-rank percentile (the smallest value with at least p of the requests at or below it), read
 * from a histogram: the upper edge of the bucket where the running count reaches ⌈p·n⌉.
 */
export function percentile(histogram: { bucket: number; n: number }[], p: number): number {
  const n = histogram.reduce((s, b) => s + b.n, 0)
  if (n === 0) return 0
  const rank = Math.max(1, Math.ceil(p * n - 1e-9))
  let seen = 0
  for (const b of [...histogram].sort((x, y) => x.bucket - y.bucket)) {
    seen += b.n
    if (seen >= rank) return Math.round(bucketUpperMs(b.bucket) * 1000) / 1000
  }
  return 0
}
