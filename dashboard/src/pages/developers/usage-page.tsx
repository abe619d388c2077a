import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Empty, Field, Page, Table } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { formatMs } from './logs-format.js'
import { DayChart } from './usage-chart.js'
import './tools.css'

type Usage = components['schemas']['ApiUsage']
type OperationUsage = components['schemas']['ApiUsageOperation']

const PERIODS = [7, 30, 90] as const
const utcDay = (offsetDays: number): string => new Date(Date.now() - offsetDays * 86_400_000).toISOString().slice(0, 10)
const n = (x: number) => x.toLocaleString()

/** /dashboard/developers/usage: requests per day and per operation, with latency, over 7, 30 or 90 UTC days. */
export function UsagePage() {
  const [days, setDays] = useState<number>(7)
  const usage = useResource((api) => ok(api.client.GET('/usage', { params: { query: { from: utcDay(days - 1), to: utcDay(0) } } })), [days])
  return (
    <Page
      title="API usage"
      actions={
        <button type="button" onClick={usage.reload} disabled={usage.loading}>
          Refresh
        </button>
      }
    >
      <div class="filters">
        <Field label="Period">
          {(id) => (
            <select id={id} value={days} onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}>
              {PERIODS.map((p) => (
                <option value={p}>Last {p} days</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Async loading={usage.loading} error={usage.error} data={usage.data} onRetry={usage.reload}>
        {(u) => <UsageReport usage={u} />}
      </Async>
    </Page>
  )
}

function UsageReport({ usage: u }: { usage: Usage }) {
  const errors = u.status_classes['4xx'] + u.status_classes['5xx']
  const dates = u.days.map((d) => d.date)
  const busiest = u.days.reduce((a, d) => (d.requests > a.requests ? d : a), u.days[0])
  const summary = `Requests per day from ${u.from} to ${u.to}: ${n(u.requests)} in all, ${n(errors)} errors${busiest && busiest.requests > 0 ? `; busiest day ${busiest.date} with ${n(busiest.requests)}` : ''}. The data table below has every day.`
  return (
    <>
      <dl class="usage-totals">
        <div><dt>Requests</dt><dd>{n(u.requests)}</dd></div>
        <div><dt>2xx</dt><dd>{n(u.status_classes['2xx'])}</dd></div>
        <div><dt>4xx</dt><dd>{n(u.status_classes['4xx'])}</dd></div>
        <div><dt>5xx</dt><dd>{n(u.status_classes['5xx'])}</dd></div>
      </dl>
      <section class="panel" aria-labelledby="usage-days">
        <h2 id="usage-days">Requests per day (UTC)</h2>
        <DayChart
          days={dates}
          summary={summary}
          series={[
            { label: 'Requests', color: '#3461c1', values: u.days.map((d) => d.requests) },
            { label: 'Errors (4xx and 5xx)', color: '#b3261e', kind: 'line', values: u.days.map((d) => d.status_classes['4xx'] + d.status_classes['5xx']) },
          ]}
        />
        <details class="usage-data">
          <summary>Requests per day as a table</summary>
          <Table
            caption="Requests per day"
            rowKey={(d) => d.date}
            rows={u.days}
            columns={[
              { label: 'Day', render: (d) => d.date },
              { label: 'Requests', class: 'num', render: (d) => n(d.requests) },
              { label: '2xx', class: 'num', render: (d) => n(d.status_classes['2xx']) },
              { label: '4xx', class: 'num', render: (d) => n(d.status_classes['4xx']) },
              { label: '5xx', class: 'num', render: (d) => n(d.status_classes['5xx']) },
              { label: 'Top operation', render: (d) => d.operations[0]?.operation_id ?? '—' },
            ]}
          />
        </details>
      </section>
      <section class="panel" aria-labelledby="usage-ops">
        <h2 id="usage-ops">By operation</h2>
        {u.operations.length === 0 ? <Empty title="No requests in this period" /> : <OperationsTable operations={u.operations} />}
      </section>
    </>
  )
}

function OperationsTable({ operations }: { operations: OperationUsage[] }) {
  const max = Math.max(1, ...operations.map((o) => o.requests))
  return (
    <Table
      caption="Requests and latency per operation, most requests first"
      rowKey={(o) => o.operation_id ?? '(none)'}
      rows={operations}
      columns={[
        { label: 'Operation', render: (o) => (o.operation_id ? <code>{o.operation_id}</code> : 'no operation matched') },
        {
          label: 'Requests',
          class: 'num',
          render: (o) => (
            <span class="usage-bar-cell">
              <span class="usage-bar" style={{ width: `${Math.max(0.2, (o.requests / max) * 6).toFixed(2)}rem` }} aria-hidden="true" />
              {n(o.requests)}
            </span>
          ),
        },
        { label: 'Errors', class: 'num', render: (o) => n(o.errors) },
        { label: 'p50', class: 'num', render: (o) => formatMs(o.p50_ms) },
        { label: 'p95', class: 'num', render: (o) => formatMs(o.p95_ms) },
      ]}
    />
  )
}
