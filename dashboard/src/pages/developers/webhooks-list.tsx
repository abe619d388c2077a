import { useLocation } from 'preact-iso'
import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Empty, Field, FormActions, Notice, Page, PagedList, SecretOnce, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { useWorkspace } from '../../ui/workspace.js'
import { DEV, EndpointBadge, type Endpoint } from './webhooks-shared.js'
import { t, tx } from '../../i18n/index.js'

/** /dashboard/developers/webhooks: the endpoints, and a new one (its secret shown once). */
export default function WebhookEndpoints() {
  const { query } = useLocation()
  const list = usePaged((api, cursor) => ok(api.client.GET('/webhooks/endpoints', { params: { query: { cursor, limit: 50 } } })))
  // ?new=<url>: the Playground's "Create an endpoint pointing here".
  const [creating, setCreating] = useState<string | null>(query.new ?? null)
  // ?deleted=<url>: the endpoint page's Delete came back here.
  const deleted = query.deleted
  // Endpoints are configuration: owners and admins add them (the API refuses members).
  const admin = useIsAdmin()
  return (
    <Page
      title={t('developers.index.webhooks')}
      actions={
        admin ? (
          <>
            <button type="button" class="primary" onClick={() => setCreating('')}>
              {t('developers.webhooksList.newEndpoint')}
            </button>
          </>
        ) : undefined
      }
    >
      {deleted && <Notice>{t('developers.webhooksList.endpointDeletedDeleted', { deleted })}</Notice>}
      <PagedList
        list={list}
        emptyView={
          <Empty title={t('developers.webhooksList.noWebhookEndpointsYet')}>
            {tx('developers.webhooksList.createOneOrTry', { playground: <a href={`${DEV}/playground`}>{t('developers.index.playground')}</a> })}
          </Empty>
        }
      >
        {(rows) => (
          <Table
            caption={t('developers.webhooksList.webhookEndpoints')}
            rowKey={(e) => e.id}
            rows={rows}
            columns={[
              { label: t('developers.webhooksEdit.url'), render: (e: Endpoint) => <a href={`${DEV}/webhooks/${e.id}`}>{e.url}</a> },
              { label: t('developers.terraformPage.description'), render: (e) => e.description ?? '—' },
              { label: t('developers.deliveriesDetail.status'), render: (e) => <EndpointBadge endpoint={e} /> },
              { label: t('developers.webhooksList.events'), render: (e) => e.event_types.join(', ') },
              { label: t('developers.deliveriesDetail.created'), render: (e) => <Time iso={e.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <CreateEndpoint initialUrl={creating} onClose={() => setCreating(null)} onCreated={(e) => list.setItems((xs) => [e, ...xs.filter((x) => x.id !== e.id)])} />
    </Page>
  )
}

function CreateEndpoint({ initialUrl, onClose, onCreated }: { initialUrl: string | null; onClose: () => void; onCreated: (e: Endpoint) => void }) {
  const { api } = useWorkspace()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [types, setTypes] = useState('*')
  const [created, setCreated] = useState<{ id: string; url: string; secret: string } | null>(null)
  useEffect(() => {
    if (initialUrl === null) return
    setUrl(initialUrl)
    setDescription('')
    setTypes('*')
    setCreated(null)
  }, [initialUrl])
  const create = useAction(async () => {
    const eventTypes = types.split(/[\s,]+/).filter(Boolean)
    const e = await ok(
      api.client.POST('/webhooks/endpoints', {
        body: { url: url.trim(), ...(description.trim() ? { description: description.trim() } : {}), event_types: eventTypes.length ? eventTypes : ['*'] },
      }),
    )
    const { secret, previous_secret_expires_at: _, ...endpoint } = e
    onCreated(endpoint)
    setCreated({ id: e.id, url: e.url, secret })
  })
  const close = () => {
    // The secret is dropped with the dialog: it is never shown again.
    setCreated(null)
    create.clear()
    onClose()
  }
  return (
    <Dialog open={initialUrl !== null} title={created ? t('developers.webhooksList.endpointCreated') : t('developers.webhooksList.newWebhookEndpoint')} onClose={close}>
      {created ? (
        <>
          <Notice>{t('developers.webhooksList.endpointCreatedForUrl', { url: created.url })}</Notice>
          <SecretOnce
            label={t('developers.webhooksList.signingSecret')}
            value={created.secret}
            onDone={close}
            actions={
              <a class="button primary" href={`${DEV}/webhooks/${created.id}`} onClick={close}>
                {t('developers.webhooksList.openTheEndpoint')}
              </a>
            }
          />
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void create.run()
          }}
        >
          <Field label={t('developers.webhooksEdit.url')} hint="https:// in live mode (http:// also in the sandbox); the service's own Playground URL is always accepted.">
            {(id, d) => <input id={id} aria-describedby={d} type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
          </Field>
          <Field label={t('developers.terraformPage.description')}>{(id) => <input id={id} value={description} onInput={(e) => setDescription(e.currentTarget.value)} />}</Field>
          <Field label={t('developers.webhooksDetail.eventTypes')} hint={t('developers.webhooksEdit.commaSeparatedCatalogTypesOr')}>
            {(id, d) => <input id={id} aria-describedby={d} value={types} onInput={(e) => setTypes(e.currentTarget.value)} />}
          </Field>
          <FormActions action={create} label={t('developers.webhooksList.createEndpoint')} busyLabel={t('developers.keysPage.creating')} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
