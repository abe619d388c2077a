import { useRoute } from 'preact-iso'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Empty, Page, Time } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { formatMs, LOGS_PATH, StatusBadge } from './logs-format.js'
import { t } from '../../i18n/index.js'

type ApiLog = components['schemas']['ApiLog']

/**
 * /dashboard/developers/logs/:requestId: one request as the API log keeps it (listApiLogs with
 * request_id: a client may reuse its own X-Request-ID, so every entry with it is shown).
 */
export function ApiLogDetail() {
  const { params } = useRoute()
  const requestId = decodeURIComponent(params.requestId ?? '')
  const logs = useResource((api) => ok(api.client.GET('/api-logs', { params: { query: { request_id: requestId, limit: 10 } } })), [requestId])
  return (
    <Page title={t('developers.logsDetail.requestRequestid', { requestId })} actions={<a href={LOGS_PATH}>{t('developers.logsDetail.allApiLogs')}</a>}>
      <Async
        loading={logs.loading}
        error={logs.error}
        data={logs.data?.data}
        empty={(d) => d.length === 0}
        emptyView={<Empty title={t('developers.logsDetail.noRequestWithThisId')}>{t('developers.logsDetail.itMayBeOlderThan')}</Empty>}
        onRetry={logs.reload}
      >
        {(entries) => entries.map((l) => <LogFacts log={l} />)}
      </Async>
    </Page>
  )
}

function LogFacts({ log: l }: { log: ApiLog }) {
  return (
    <section class="panel" aria-label={`${l.method} ${l.path}`}>
      <h2>
        {l.method} <code>{l.path}</code> <StatusBadge status={l.status} />
      </h2>
      <dl class="facts">
        <dt>{t('developers.logsDetail.requestId')}</dt>
        <dd>
          <code>{l.request_id}</code>
        </dd>
        <dt>{t('developers.logsDetail.logId')}</dt>
        <dd>
          <code>{l.id}</code>
        </dd>
        <dt>{t('developers.logsDetail.time')}</dt>
        <dd>
          <Time iso={l.created_at} />
        </dd>
        <dt>{t('developers.logsDetail.operation')}</dt>
        <dd>{l.operation_id ? <code>{l.operation_id}</code> : t('developers.logsDetail.noOperationMatched')}</dd>
        <dt>{t('developers.deliveriesDetail.status')}</dt>
        <dd>{l.status}</dd>
        <dt>{t('developers.logsDetail.errorCode')}</dt>
        <dd>{l.error_code ? <code>{l.error_code}</code> : '—'}</dd>
        <dt>{t('developers.deliveriesDetail.duration')}</dt>
        <dd>{formatMs(l.duration_ms)}</dd>
        <dt>{t('developers.keysPage.key')}</dt>
        <dd>{l.key_id ? <code>{l.key_id}</code> : '—'}</dd>
        <dt>{t('developers.logsDetail.oauthApp')}</dt>
        <dd>{l.oauth_app_id ? <code>{l.oauth_app_id}</code> : '—'}</dd>
        <dt>{t('developers.logsDetail.clientAddress')}</dt>
        <dd>{l.ip ?? '—'}</dd>
        <dt>{t('developers.logsDetail.userAgent')}</dt>
        <dd>{l.user_agent ?? '—'}</dd>
      </dl>
      <p class="hint">{t('developers.logsDetail.theApiLogNeverKeeps')}</p>
    </section>
  )
}
