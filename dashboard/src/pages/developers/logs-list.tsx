import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components, operations } from '../../api/schema.js'
import { Empty, Field, Page, PagedList, Table, Time, type Column } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { formatMs, LOGS_PATH, logHref, StatusBadge } from './logs-format.js'
import { t } from '../../i18n/index.js'

type ApiLog = components['schemas']['ApiLog']
type Query = NonNullable<operations['listApiLogs']['parameters']['query']>

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'HEAD', 'OPTIONS'] as const
const CLASSES = ['1xx', '2xx', '3xx', '4xx', '5xx'] as const
const FILTERS = ['status_class', 'method', 'operation_id', 'key_id', 'request_id', 'created_gte', 'created_lt'] as const
type Filters = Partial<Record<(typeof FILTERS)[number], string>>

/** A date-time from a datetime-local value (the browser's zone) for the API, and back. */
const toIso = (local: string): string | undefined => (local ? new Date(local).toISOString() : undefined)
const toLocal = (iso: string | undefined): string => {
  if (!iso) return ''
  const d = new Date(iso)
  if (Number.isNaN(d.getTime())) return ''
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`
}

const columns = (): Column<ApiLog>[] => [
  { label: t('developers.logsList.time'), render: (l) => <Time iso={l.created_at} /> },
  {
    label: t('developers.logsList.request'),
    render: (l) => (
      <a href={logHref(l.request_id)}>
        <code>{l.request_id}</code>
      </a>
    ),
  },
  { label: t('developers.logsList.method'), render: (l) => l.method },
  { label: t('developers.logsList.path'), render: (l) => <code>{l.path}</code> },
  { label: t('developers.logsList.operation'), render: (l) => l.operation_id ?? '—' },
  { label: t('developers.logsList.status'), render: (l) => <StatusBadge status={l.status} /> },
  { label: t('developers.logsList.duration'), class: 'num', render: (l) => formatMs(l.duration_ms) },
  { label: t('developers.logsList.key'), render: (l) => (l.key_id ? <code>{l.key_id}</code> : '—') },
]

/** /dashboard/developers/logs: the requests made with this workspace's keys, newest first, filtered by the URL's query. */
export function ApiLogsPage() {
  const { query, route } = useLocation()
  const applied: Filters = Object.fromEntries(FILTERS.filter((f) => query[f]).map((f) => [f, query[f]]))
  const key = JSON.stringify(applied)
  const list = usePaged((api, cursor) => ok(api.client.GET('/api-logs', { params: { query: { ...(applied as Query), cursor, limit: 25 } } })), [key])
  const [draft, setDraft] = useState<Filters>(applied)
  const set = (f: keyof Filters) => (e: Event) => setDraft({ ...draft, [f]: (e.target as HTMLInputElement).value })
  const apply = (e: Event) => {
    e.preventDefault()
    const params = new URLSearchParams()
    for (const f of FILTERS) {
      const v = f === 'created_gte' || f === 'created_lt' ? draft[f] : draft[f]?.trim()
      if (v) params.set(f, v)
    }
    const qs = params.toString()
    route(qs ? `${LOGS_PATH}?${qs}` : LOGS_PATH)
  }
  const clear = () => {
    setDraft({})
    route(LOGS_PATH)
  }
  const filtered = Object.keys(applied).length > 0
  return (
    <Page
      title={t('developers.logsList.apiLogs')}
      actions={
        <button type="button" onClick={list.reload} disabled={list.loading}>
          {t('developers.logsList.refresh')}
        </button>
      }
    >
      <form class="filters panel" role="search" aria-label={t('developers.logsList.filterApiLogs')} onSubmit={apply}>
        <Field label={t('developers.deliveriesDetail.status')}>
          {(id) => (
            <select id={id} value={draft.status_class ?? ''} onChange={set('status_class')}>
              <option value="">{t('developers.deliveriesList.any')}</option>
              {CLASSES.map((c) => (
                <option value={c}>{c}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('developers.logsList.method')}>
          {(id) => (
            <select id={id} value={draft.method ?? ''} onChange={set('method')}>
              <option value="">{t('developers.deliveriesList.any')}</option>
              {METHODS.map((m) => (
                <option value={m}>{m}</option>
              ))}
            </select>
          )}
        </Field>
        <Field label={t('developers.logsDetail.operation')}>
          {(id) => <input id={id} value={draft.operation_id ?? ''} onInput={set('operation_id')} placeholder={t('developers.logsList.listbots')} />}
        </Field>
        <Field label={t('developers.keysPage.key')}>{(id) => <input id={id} value={draft.key_id ?? ''} onInput={set('key_id')} placeholder={t('developers.logsList.key')} />}</Field>
        <Field label={t('developers.logsDetail.requestId')}>{(id) => <input id={id} value={draft.request_id ?? ''} onInput={set('request_id')} />}</Field>
        <Field label={t('developers.logsList.from')}>
          {(id) => <input id={id} type="datetime-local" value={toLocal(draft.created_gte)} onInput={(e) => setDraft({ ...draft, created_gte: toIso((e.target as HTMLInputElement).value) })} />}
        </Field>
        <Field label={t('developers.logsList.before')}>
          {(id) => <input id={id} type="datetime-local" value={toLocal(draft.created_lt)} onInput={(e) => setDraft({ ...draft, created_lt: toIso((e.target as HTMLInputElement).value) })} />}
        </Field>
        <div class="form-actions">
          <button type="submit" class="primary">
            {t('developers.deliveriesList.applyFilters')}
          </button>
          {filtered && (
            <button type="button" onClick={clear}>
              {t('developers.deliveriesList.clear')}
            </button>
          )}
        </div>
      </form>
      <p class="hint">{t('developers.logsList.requestsShowHereWithinAbout')}</p>
      <PagedList
        list={list}
        emptyView={
          <Empty title={filtered ? t('developers.logsList.noRequestMatchesTheseFilters') : t('developers.logsList.noApiRequestsYet')}>{t('developers.logsList.requestsMadeWithThisWorkspace')}</Empty>
        }
      >
        {(rows) => <Table caption={t('developers.logsList.apiRequestsNewestFirst')} columns={columns()} rows={rows} rowKey={(l) => l.id} />}
      </PagedList>
    </Page>
  )
}
