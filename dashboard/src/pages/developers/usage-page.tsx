import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Empty, Field, Page, Table } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { formatMs } from './logs-format.js'
import { DayChart, themeColor } from './usage-chart.js'
import './tools.css'
import { formatNumber, t } from '../../i18n/index.js'

type Usage = components['schemas']['ApiUsage']
type OperationUsage = components['schemas']['ApiUsageOperation']

const PERIODS = [7, 30, 90] as const
const utcDay = (offsetDays: number): string => new Date(Date.now() - offsetDays * 86_400_000).toISOString().slice(0, 10)
const n = (x: number) => formatNumber(x)

/** /dashboard/developers/usage: requests per day and per operation, with latency, over 7, 30 or 90 UTC days. */
export function UsagePage() {
  const [days, setDays] = useState<number>(7)
  const usage = useResource((api) => ok(api.client.GET('/usage', { params: { query: { from: utcDay(days - 1), to: utcDay(0) } } })), [days])
  return (
    <Page
      title={t('developers.usagePage.apiUsage')}
      actions={
        <button type="button" onClick={usage.reload} disabled={usage.loading}>
          {t('developers.logsList.refresh')}
        </button>
      }
    >
      <div class="filters">
        <Field label={t('developers.usagePage.period')}>
          {(id) => (
            <select id={id} value={days} onChange={(e) => setDays(Number((e.target as HTMLSelectElement).value))}>
              {PERIODS.map((p) => (
                <option value={p}>{t('developers.usagePage.lastPDays', { p })}</option>
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
  const summary = t(busiest && busiest.requests > 0 ? 'developers.usage.summaryBusiest' : 'developers.usage.summary', {
    from: u.from,
    to: u.to,
    requests: u.requests,
    errors,
    busiest: busiest?.date,
    busiestRequests: busiest?.requests,
  })
  return (
    <>
      <dl class="usage-totals">
        <div>
          <dt>{t('developers.playgroundLive.requests')}</dt>
          <dd>{n(u.requests)}</dd>
        </div>
        <div>
          <dt>{t('developers.usagePage.2xx')}</dt>
          <dd>{n(u.status_classes['2xx'])}</dd>
        </div>
        <div>
          <dt>{t('developers.usagePage.4xx')}</dt>
          <dd>{n(u.status_classes['4xx'])}</dd>
        </div>
        <div>
          <dt>{t('developers.usagePage.5xx')}</dt>
          <dd>{n(u.status_classes['5xx'])}</dd>
        </div>
      </dl>
      <section class="panel" aria-labelledby="usage-days">
        <h2 id="usage-days">{t('developers.usagePage.requestsPerDayUtc')}</h2>
        <DayChart
          days={dates}
          summary={summary}
          series={[
            { label: t('developers.playgroundLive.requests'), color: themeColor('--chart-requests'), values: u.days.map((d) => d.requests) },
            { label: t('developers.usagePage.errors4xxAnd5xx'), color: themeColor('--chart-errors'), kind: 'line', values: u.days.map((d) => d.status_classes['4xx'] + d.status_classes['5xx']) },
          ]}
        />
        <details class="usage-data">
          <summary>{t('developers.usagePage.requestsPerDayAsA')}</summary>
          <Table
            caption={t('developers.usagePage.requestsPerDay')}
            rowKey={(d) => d.date}
            rows={u.days}
            columns={[
              { label: t('developers.usagePage.day'), render: (d) => d.date },
              { label: t('developers.playgroundLive.requests'), class: 'num', render: (d) => n(d.requests) },
              { label: '2xx', class: 'num', render: (d) => n(d.status_classes['2xx']) },
              { label: '4xx', class: 'num', render: (d) => n(d.status_classes['4xx']) },
              { label: '5xx', class: 'num', render: (d) => n(d.status_classes['5xx']) },
              { label: t('developers.usagePage.topOperation'), render: (d) => d.operations[0]?.operation_id ?? '—' },
            ]}
          />
        </details>
      </section>
      <section class="panel" aria-labelledby="usage-ops">
        <h2 id="usage-ops">{t('developers.usagePage.byOperation')}</h2>
        {u.operations.length === 0 ? <Empty title={t('developers.usagePage.noRequestsInThisPeriod')} /> : <OperationsTable operations={u.operations} />}
      </section>
    </>
  )
}

function OperationsTable({ operations }: { operations: OperationUsage[] }) {
  const max = Math.max(1, ...operations.map((o) => o.requests))
  return (
    <Table
      caption={t('developers.usagePage.requestsAndLatencyPerOperation')}
      rowKey={(o) => o.operation_id ?? '(none)'}
      rows={operations}
      columns={[
        { label: t('developers.logsDetail.operation'), render: (o) => (o.operation_id ? <code>{o.operation_id}</code> : 'no operation matched') },
        {
          label: t('developers.playgroundLive.requests'),
          class: 'num',
          render: (o) => (
            <span class="usage-bar-cell">
              <span class="usage-bar" style={{ width: `${Math.max(0.2, (o.requests / max) * 6).toFixed(2)}rem` }} aria-hidden="true" />
              {n(o.requests)}
            </span>
          ),
        },
        { label: t('developers.usagePage.errors'), class: 'num', render: (o) => n(o.errors) },
        { label: 'p50', class: 'num', render: (o) => formatMs(o.p50_ms) },
        { label: 'p95', class: 'num', render: (o) => formatMs(o.p95_ms) },
      ]}
    />
  )
}
