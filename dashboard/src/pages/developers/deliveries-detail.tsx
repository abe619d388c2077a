import { useRoute } from 'preact-iso'
import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Notice, Page, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DEV, StatusBadge, excerpt, type Attempt } from './webhooks-shared.js'
import { t } from '../../i18n/index.js'

/** /dashboard/developers/deliveries/:id: each attempt (status, response excerpt, timing) and Replay. */
export default function WebhookDeliveryDetail() {
  const { params } = useRoute()
  const id = params.id
  const { api } = useWorkspace()
  const d = useResource((a) => ok(a.client.GET('/webhooks/deliveries/{id}', { params: { path: { id } } })), [id])
  const [replayed, setReplayed] = useState<number | null>(null)
  const replay = useAction(async () => {
    const before = d.data?.attempts.length ?? 0
    await ok(api.client.POST('/webhooks/deliveries/{id}/replay', { params: { path: { id } }, body: {} }))
    setReplayed(before)
    d.reload()
  })
  // Look again every 1.5 s while an attempt is on its way (pending, sending, or the replay not yet started).
  const data = d.data
  const waiting = !!data && (data.status === 'pending' || data.attempts.some((a) => a.status === 'sending') || (replayed !== null && data.attempts.length <= replayed))
  useEffect(() => {
    if (!waiting) return
    const t = setTimeout(d.reload, 1500)
    return () => clearTimeout(t)
  }, [waiting, data])

  return (
    <Page title={t('developers.deliveriesDetail.webhookDelivery')}>
      <Async loading={d.loading} error={d.error} data={data} onRetry={d.reload}>
        {(x) => (
          <>
            <section class="panel" aria-labelledby="delivery-facts">
              <h2 id="delivery-facts">
                <code>{x.id}</code>
              </h2>
              <dl class="facts">
                <dt>{t('developers.deliveriesDetail.status')}</dt>
                <dd>
                  <StatusBadge status={x.status} />
                </dd>
                <dt>{t('developers.deliveriesDetail.event')}</dt>
                <dd>
                  <code>{x.event_type}</code> (<code>{x.event_id}</code>)
                </dd>
                <dt>{t('developers.deliveriesDetail.endpoint')}</dt>
                <dd>
                  <a href={`${DEV}/webhooks/${x.endpoint_id}`}>{x.endpoint_id}</a>
                </dd>
                <dt>{t('developers.deliveriesDetail.attempts')}</dt>
                <dd>{x.attempts_count}</dd>
                <dt>{t('developers.deliveriesDetail.nextRetry')}</dt>
                <dd>
                  <Time iso={x.next_retry_at} />
                </dd>
                <dt>{t('developers.deliveriesDetail.created')}</dt>
                <dd>
                  <Time iso={x.created_at} />
                </dd>
              </dl>
              <div class="form-actions">
                <button type="button" class="primary" disabled={replay.pending} onClick={() => void replay.run()}>
                  {replay.pending ? t('developers.deliveriesDetail.replaying') : t('developers.deliveriesDetail.replay')}
                </button>
              </div>
            </section>
            {replayed !== null && (
              <Notice tone={x.attempts.length > replayed ? 'good' : 'info'}>
                {x.attempts.length > replayed
                  ? t('developers.deliveriesDetail.replayedAttemptLengthIsBelow', { length: x.attempts.length })
                  : t('developers.deliveriesDetail.replayQueuedTheNewAttempt')}
              </Notice>
            )}
            {replay.error && <ProblemView problem={replay.error} />}
            <h2>{t('developers.deliveriesDetail.attempts')}</h2>
            {x.attempts.length === 0 ? (
              <p>{t('developers.deliveriesDetail.noAttemptYetTheFirst')}</p>
            ) : (
              <Table
                caption={t('developers.deliveriesDetail.attemptsNewestFirst')}
                rowKey={(a) => a.id}
                rows={x.attempts}
                columns={[
                  { label: '#', class: 'num', render: (a: Attempt) => a.attempt },
                  { label: t('developers.deliveriesDetail.trigger'), render: (a) => a.trigger },
                  { label: t('developers.deliveriesDetail.status'), render: (a) => <StatusBadge status={a.status} /> },
                  { label: t('developers.deliveriesDetail.response'), render: (a) => a.response_status ?? '—' },
                  { label: t('developers.deliveriesDetail.duration'), class: 'num', render: (a) => `${a.duration_ms} ms` },
                  { label: t('developers.deliveriesDetail.started'), render: (a) => <Time iso={a.created_at} /> },
                  { label: t('developers.deliveriesDetail.responseBody'), render: (a) => <AttemptBody attempt={a} /> },
                ]}
              />
            )}
          </>
        )}
      </Async>
    </Page>
  )
}

function AttemptBody({ attempt }: { attempt: Attempt }) {
  if (!attempt.response_body && !attempt.error) return <span>—</span>
  return (
    <details>
      <summary>
        {attempt.error ? t('developers.deliveriesDetail.errorAndBody') : t('developers.deliveriesDetail.body')} {t('developers.deliveriesDetail.ofAttemptAttempt', { attempt: attempt.attempt })}
      </summary>
      {attempt.error && <p>{attempt.error}</p>}
      {attempt.response_body && (
        <pre style={{ whiteSpace: 'pre-wrap', maxWidth: '40rem' }}>
          <code>{excerpt(attempt.response_body)}</code>
        </pre>
      )}
      <p>
        {t('developers.deliveriesDetail.to')} <code>{attempt.url}</code>
      </p>
    </details>
  )
}
