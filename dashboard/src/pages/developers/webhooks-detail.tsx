import { useLocation, useRoute } from 'preact-iso'
import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Dialog, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, SecretOnce, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DeleteEndpointDialog, EditEndpointDialog } from './webhooks-edit.js'
import { DEV, DeliveriesTable, EndpointBadge, type Endpoint } from './webhooks-shared.js'

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
    setNotice({ text: next.enabled ? 'Endpoint enabled: deliveries resume.' : 'Endpoint disabled: no deliveries until you enable it again.' })
  })
  const test = useAction(async () => {
    const d = await ok(api.client.POST('/webhooks/endpoints/{id}/test', { params: { path: { id } } }))
    setNotice({ text: `Test event sent: delivery ${d.id}.`, href: `${DEV}/deliveries/${d.id}` })
    deliveries.reload()
  })
  const problem = toggle.error ?? test.error

  return (
    <Page title="Webhook endpoint">
      <Async loading={ep.loading} error={ep.error} data={ep.data} onRetry={ep.reload}>
        {(e) => (
          <>
            <section class="panel" aria-labelledby="endpoint-facts">
              <h2 id="endpoint-facts">{e.url}</h2>
              <dl class="facts">
                <dt>Status</dt>
                <dd>
                  <EndpointBadge endpoint={e} /> {e.disabled_reason && <span>({e.disabled_reason})</span>}
                </dd>
                <dt>Id</dt>
                <dd>
                  <code>{e.id}</code>
                </dd>
                <dt>Description</dt>
                <dd>{e.description ?? '—'}</dd>
                <dt>Event types</dt>
                <dd>{e.event_types.join(', ')}</dd>
                <dt>Metadata</dt>
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
                    <dt>Legacy signature</dt>
                    <dd>also sends X-Svc-Signature (deprecated)</dd>
                  </>
                )}
                {e.failing_since && (
                  <>
                    <dt>Failing since</dt>
                    <dd>
                      <Time iso={e.failing_since} />
                    </dd>
                  </>
                )}
                <dt>Created</dt>
                <dd>
                  <Time iso={e.created_at} />
                </dd>
              </dl>
              {admin && (
                <div class="form-actions">
                  <button type="button" onClick={() => (setNotice(null), setEditing(true))}>
                    Edit
                  </button>
                  <button type="button" class={e.enabled ? 'danger' : 'primary'} disabled={toggle.pending} onClick={() => void toggle.run(e)}>
                    {e.enabled ? 'Disable endpoint' : 'Enable endpoint'}
                  </button>
                  <button type="button" onClick={() => setRotating(true)}>
                    Rotate secret
                  </button>
                  <button type="button" disabled={test.pending || !e.enabled} onClick={() => void test.run()}>
                    {test.pending ? 'Sending…' : 'Send test event'}
                  </button>
                  <button type="button" class="danger" onClick={() => setDeleting(true)}>
                    Delete endpoint
                  </button>
                </div>
              )}
            </section>
            {notice && (
              <Notice>
                {notice.text} {notice.href && <a href={notice.href}>View the delivery</a>}
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
                setNotice({ text: 'Endpoint saved.' })
              }}
            />
            <DeleteEndpointDialog endpoint={e} open={deleting} onClose={() => setDeleting(false)} onDeleted={() => route(`${DEV}/webhooks?deleted=${encodeURIComponent(e.url)}`)} />
          </>
        )}
      </Async>
      <section aria-labelledby="endpoint-deliveries">
        <div class="page-head">
          <h2 id="endpoint-deliveries">Deliveries</h2>
          <button type="button" onClick={deliveries.reload}>
            Refresh
          </button>
        </div>
        <PagedList list={deliveries} emptyView={<Empty title="No deliveries to this endpoint yet">Send a test event to see one.</Empty>}>
          {(rows) => <DeliveriesTable caption="Deliveries to this endpoint" rows={rows} />}
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
    const r = await ok(
      api.client.POST('/webhooks/endpoints/{id}/rotate-secret', { params: { path: { id: endpointId } }, body: { grace_period_seconds: Math.round(Number(hours) * 3600) } }),
    )
    setSecret({ value: r.secret, previousUntil: r.previous_secret_expires_at })
  })
  const close = () => {
    // Dropped with the dialog: never shown again.
    setSecret(null)
    rotate.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={secret ? 'Secret rotated' : 'Rotate the signing secret'} onClose={close}>
      {secret ? (
        <SecretOnce label="New signing secret" value={secret.value} onDone={close}>
          <p>
            {secret.previousUntil ? (
              <>
                The previous secret keeps signing until <Time iso={secret.previousUntil} />.
              </>
            ) : (
              'The previous secret no longer signs.'
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
          <Field label="Grace period (hours)" hint="The previous secret keeps signing this long (0 = stop now), so receivers can switch without losing events.">
            {(id, d) => <input id={id} aria-describedby={d} type="number" min="0" max="720" step="1" required value={hours} onInput={(e) => setHours(e.currentTarget.value)} />}
          </Field>
          <FormActions action={rotate} label="Rotate secret" busyLabel="Rotating…" onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
