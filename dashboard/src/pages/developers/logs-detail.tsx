import { useRoute } from 'preact-iso'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Empty, Page, Time } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { formatMs, LOGS_PATH, StatusBadge } from './logs-format.js'

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
    <Page title={`Request ${requestId}`} actions={<a href={LOGS_PATH}>← All API logs</a>}>
      <Async
        loading={logs.loading}
        error={logs.error}
        data={logs.data?.data}
        empty={(d) => d.length === 0}
        emptyView={<Empty title="No request with this id">It may be older than the logs’ retention, or made in the other mode (live or sandbox).</Empty>}
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
        <dt>Request id</dt>
        <dd><code>{l.request_id}</code></dd>
        <dt>Log id</dt>
        <dd><code>{l.id}</code></dd>
        <dt>Time</dt>
        <dd><Time iso={l.created_at} /></dd>
        <dt>Operation</dt>
        <dd>{l.operation_id ? <code>{l.operation_id}</code> : 'no operation matched'}</dd>
        <dt>Status</dt>
        <dd>{l.status}</dd>
        <dt>Error code</dt>
        <dd>{l.error_code ? <code>{l.error_code}</code> : '—'}</dd>
        <dt>Duration</dt>
        <dd>{formatMs(l.duration_ms)}</dd>
        <dt>Key</dt>
        <dd>{l.key_id ? <code>{l.key_id}</code> : '—'}</dd>
        <dt>OAuth app</dt>
        <dd>{l.oauth_app_id ? <code>{l.oauth_app_id}</code> : '—'}</dd>
        <dt>Client address</dt>
        <dd>{l.ip ?? '—'}</dd>
        <dt>User agent</dt>
        <dd>{l.user_agent ?? '—'}</dd>
      </dl>
      <p class="hint">The API log never keeps request or response bodies, query strings or credentials.</p>
    </section>
  )
}
