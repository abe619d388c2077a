import { useLocation, useRoute } from 'preact-iso'
import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Dialog, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, SecretOnce, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DeleteEndpointDialog, EditEndpointDialog } from './webhooks-edit.js'
import { DEV, DeliveriesTable, EndpointBadge, type Endpoint } from './webhooks-shared.js'
import { t } from '../../i18n/index.js'

/** /dashboard/developers/webhooks/:id: one endpoint: edit, enable/disable, rotate its secret, send a test event, delete; its deliveries. */
export default function WebhookEndpointDetail() {
  const { params } = useRoute()
  const { route } = useLocation()
  const id = params.id
  const { api } = useWorkspace()
  const ep = useResource((a) => ok(a.client.GET('/webhooks/endpoints/{id}', { params: { path: { id } } })), [id])
  const deliveries = usePaged((a, cursor) => ok(a.client.GET('/webhooks/deliveries', { params: { query: { endpoint_id: id, cursor, limit: 25 } } })), [id])
  const [notice, setNotice] = useState<{ text: string; href?: string } | null>(null)
  const [rotating, setRotating] = useState(false)
  const [editing, setEditing] = useState(false)
  const [deleting, setDeleting] = useState(false)
  // Changing an endpoint is for owners and admins (the API refuses members); members see it and its deliveries.
  const admin = useIsAdmin()

  // While a delivery is on its way, look again every 2 s.
  const pending = deliveries.items.some((d) => d.status === 'pending')
  useEffect(() => {
    if (!pending) return
    const t = setTimeout(deliveries.reload, 2000)
    return () => clearTimeout(t)
  }, [pending, deliveries.items])

  const toggle = useAction(async (e: Endpoint) => {
    const next = await ok(api.client.PATCH('/webhooks/endpoints/{id}', { params: { path: { id: e.id } }, body: { enabled: !e.enabled } }))
    ep.set(next)
    setNotice({ text: next.enabled ? t('developers.webhooksDetail.endpointEnabledDeliveriesResume') : t('developers.webhooksDetail.endpointDisabledNoDeliveriesUntil') })
  })
  const test = useAction(async () => {
    const d = await ok(api.client.POST('/webhooks/endpoints/{id}/test', { params: { path: { id } } }))
    setNotice({ text: t('developers.webhooksDetail.testEventSentDeliveryId', { id: d.id }), href: `${DEV}/deliveries/${d.id}` })
    deliveries.reload()
  })
  const problem = toggle.error ?? test.error

  return (
    <Page title={t('developers.webhooksDetail.webhookEndpoint')}>
      <Async loading={ep.loading} error={ep.error} data={ep.data} onRetry={ep.reload}>
        {(e) => (
          <>
            <section class="panel" aria-labelledby="endpoint-facts">
              <h2 id="endpoint-facts">{e.url}</h2>
              <dl class="facts">
                <dt>{t('developers.deliveriesDetail.status')}</dt>
                <dd>
                  <EndpointBadge endpoint={e} /> {e.disabled_reason && <span>({e.disabled_reason})</span>}
                </dd>
                <dt>{t('developers.oauthAppsDetail.id')}</dt>
                <dd>
                  <code>{e.id}</code>
                </dd>
                <dt>{t('developers.terraformPage.description')}</dt>
                <dd>{e.description ?? '—'}</dd>
                <dt>{t('developers.webhooksDetail.eventTypes')}</dt>
                <dd>{e.event_types.join(', ')}</dd>
                <dt>{t('developers.webhooksDetail.metadata')}</dt>
                <dd>
                  {Object.keys(e.metadata).length === 0 ? (
                    '—'
                  ) : (
                    <ul class="uri-list">
                      {Object.entries(e.metadata).map(([k, v]) => (
                        <li>
                          <code class="break-anywhere">
                            {k}={v}
                          </code>
                        </li>
                      ))}
                    </ul>
                  )}
                </dd>
                {e.legacy_signature && (
                  <>
                    <dt>{t('developers.webhooksDetail.legacySignature')}</dt>
                    <dd>{t('developers.webhooksDetail.alsoSendsXSvcSignature')}</dd>
                  </>
                )}
                {e.failing_since && (
                  <>
                    <dt>{t('developers.webhooksDetail.failingSince')}</dt>
                    <dd>
                      <Time iso={e.failing_since} />
                    </dd>
                  </>
                )}
                <dt>{t('developers.deliveriesDetail.created')}</dt>
                <dd>
                  <Time iso={e.created_at} />
                </dd>
              </dl>
              {admin && (
                <div class="form-actions">
                  <button type="button" onClick={() => (setNotice(null), setEditing(true))}>
                    {t('developers.oauthAppsDetail.edit')}
                  </button>
                  <button type="button" class={e.enabled ? 'danger' : 'primary'} disabled={toggle.pending} onClick={() => void toggle.run(e)}>
                    {e.enabled ? t('developers.webhooksDetail.disableEndpoint') : t('developers.webhooksDetail.enableEndpoint')}
                  </button>
                  <button type="button" onClick={() => setRotating(true)}>
                    {t('developers.oauthAppsDetail.rotateSecret')}
                  </button>
                  <button type="button" disabled={test.pending || !e.enabled} onClick={() => void test.run()}>
                    {test.pending ? t('developers.webhooksDetail.sending') : t('developers.webhooksDetail.sendTestEvent')}
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(true)}>
                    {t('developers.webhooksDetail.deleteEndpoint')}
                  </button>
                </div>
              )}
            </section>
            {notice && (
              <Notice>
                {notice.text} {notice.href && <a href={notice.href}>{t('developers.webhooksDetail.viewTheDelivery')}</a>}
              </Notice>
            )}
            {problem && <ProblemView problem={problem} />}
            <RotateSecret endpointId={e.id} open={rotating} onClose={() => setRotating(false)} />
            <EditEndpointDialog
              endpoint={e}
              open={editing}
              onClose={() => setEditing(false)}
              onSaved={(next) => {
                ep.set(next)
                setEditing(false)
                setNotice({ text: t('developers.webhooksDetail.endpointSaved') })
              }}
            />
            <DeleteEndpointDialog endpoint={e} open={deleting} onClose={() => setDeleting(false)} onDeleted={() => route(`${DEV}/webhooks?deleted=${encodeURIComponent(e.url)}`)} />
          </>
        )}
      </Async>
      <section aria-labelledby="endpoint-deliveries">
        <div class="page-head">
          <h2 id="endpoint-deliveries">{t('developers.index.deliveries')}</h2>
          <button type="button" onClick={deliveries.reload}>
            {t('developers.logsList.refresh')}
          </button>
        </div>
        <PagedList list={deliveries} emptyView={<Empty title={t('developers.webhooksDetail.noDeliveriesToThisEndpoint')}>{t('developers.webhooksDetail.sendATestEventTo')}</Empty>}>
          {(rows) => <DeliveriesTable caption={t('developers.webhooksDetail.deliveriesToThisEndpoint')} rows={rows} />}
        </PagedList>
      </section>
    </Page>
  )
}

function RotateSecret({ endpointId, open, onClose }: { endpointId: string; open: boolean; onClose: () => void }) {
  const { api } = useWorkspace()
  const [hours, setHours] = useState('24')
  const [secret, setSecret] = useState<{ value: string; previousUntil: string | null } | null>(null)
  const rotate = useAction(async () => {
    const r = await ok(api.client.POST('/webhooks/endpoints/{id}/rotate-secret', { params: { path: { id: endpointId } }, body: { grace_period_seconds: Math.round(Number(hours) * 3600) } }))
    setSecret({ value: r.secret, previousUntil: r.previous_secret_expires_at })
  })
  const close = () => {
    // Dropped with the dialog: never shown again.
    setSecret(null)
    rotate.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={secret ? t('developers.webhooksDetail.secretRotated') : t('developers.webhooksDetail.rotateTheSigningSecret')} onClose={close}>
      {secret ? (
        <SecretOnce label={t('developers.webhooksDetail.newSigningSecret')} value={secret.value} onDone={close}>
          <p>
            {secret.previousUntil ? (
              <>
                {t('developers.webhooksDetail.thePreviousSecretKeepsSigning')} <Time iso={secret.previousUntil} />.
              </>
            ) : (
              t('developers.webhooksDetail.thePreviousSecretNoLonger')
            )}
          </p>
        </SecretOnce>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void rotate.run()
          }}
        >
          <Field label={t('developers.oauthAppsDetail.gracePeriodHours')} hint={t('developers.webhooksDetail.thePreviousSecretKeepsSigning2')}>
            {(id, d) => <input id={id} aria-describedby={d} type="number" min="0" max="720" step="1" required value={hours} onInput={(e) => setHours(e.currentTarget.value)} />}
          </Field>
          <FormActions action={rotate} label={t('developers.oauthAppsDetail.rotateSecret')} busyLabel={t('developers.oauthAppsDetail.rotating')} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
