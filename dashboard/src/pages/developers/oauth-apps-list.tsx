import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Notice, Page, PagedList, SecretOnce, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { OAUTH_APPS_PATH, OAuthAppForm, ScopeList, type AppDraft, type OAuthApp } from './oauth-apps-form.js'
import './tools.css'
import { statusLabel, t, tx } from '../../i18n/index.js'

const EMPTY: AppDraft = { name: '', type: 'confidential', redirect_uris: [], allowed_scopes: ['read'] }

/** /dashboard/developers/oauth-apps: the partner apps this workspace registered in this mode; register one. */
export function OAuthAppsPage() {
  const { api } = useWorkspace()
  // ?deleted=<name>: the app page's Delete came back here.
  const { query } = useLocation()
  const list = usePaged((api, cursor) => ok(api.client.GET('/oauth/apps', { params: { query: { cursor, limit: 20 } } })))
  const [creating, setCreating] = useState(false)
  // The new app's secret, shown once: dropped when dismissed, never fetched again.
  const [created, setCreated] = useState<{ app: OAuthApp; secret: string | null }>()
  const create = useAction(async (d: AppDraft) => {
    const { client_secret, ...app } = await ok(api.client.POST('/oauth/apps', { body: d }))
    return { app, secret: client_secret }
  })
  return (
    <Page
      title={t('developers.oauthAppsList.oauthApps')}
      actions={
        <button type="button" class="primary" onClick={() => (create.clear(), setCreating(true))}>
          {t('developers.oauthAppsList.registerAnApp')}
        </button>
      }
    >
      <p class="hint">{t('developers.oauthAppsList.partnerAppsThatActFor')}</p>
      {query.deleted && <Notice>{t('developers.oauthAppsList.appDeletedDeletedItsAuthorizations', { deleted: query.deleted })}</Notice>}
      {created && (
        <div class="panel" role="region" aria-label={t('developers.oauthAppsList.newApp')}>
          <Notice>{tx('developers.oauthAppsList.registered', { name: <strong>{created.app.name}</strong>, clientId: <code>{created.app.client_id}</code> })}</Notice>
          {created.secret ? (
            <SecretOnce label={t('developers.oauthAppsDetail.clientSecret')} value={created.secret} onDone={() => setCreated(undefined)} doneLabel={t('developers.oauthAppsDetail.doneISavedIt')} />
          ) : (
            <>
              <p>{t('developers.oauthAppsList.aPublicAppHasNo')}</p>
              <div class="form-actions">
                <button type="button" onClick={() => setCreated(undefined)}>
                  {t('developers.oauthAppsList.done')}
                </button>
              </div>
            </>
          )}
        </div>
      )}
      <PagedList list={list} emptyView={<Empty title={t('developers.oauthAppsList.noOauthAppsYet')}>{t('developers.oauthAppsList.registerOneToLetPartners')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('developers.oauthAppsList.oauthAppsNewestFirst')}
            rowKey={(a) => a.id}
            rows={rows}
            columns={[
              { label: t('developers.keysPage.name'), render: (a) => <a href={`${OAUTH_APPS_PATH}/${a.id}`}>{a.name}</a> },
              { label: t('developers.oauthAppsDetail.clientId'), render: (a) => <code>{a.client_id}</code> },
              { label: t('developers.oauthAppsDetail.type'), render: (a) => <Badge tone={a.type === 'public' ? 'info' : 'neutral'}>{statusLabel(a.type)}</Badge> },
              {
                label: t('developers.oauthAppsDetail.redirectUris'),
                render: (a) => (
                  <ul class="uri-list">
                    {a.redirect_uris.map((u) => (
                      <li>
                        <code>{u}</code>
                      </li>
                    ))}
                  </ul>
                ),
              },
              { label: t('developers.keysPage.scopes'), render: (a) => <ScopeList scopes={a.allowed_scopes} /> },
              { label: t('developers.deliveriesDetail.created'), render: (a) => <Time iso={a.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={creating} title={t('developers.oauthAppsList.registerAnOauthApp')} onClose={() => setCreating(false)}>
        <OAuthAppForm
          initial={EMPTY}
          withType
          submitLabel={t('developers.oauthAppsList.register')}
          pending={create.pending}
          error={create.error}
          onCancel={() => setCreating(false)}
          onSubmit={async (d) => {
            const r = await create.run(d)
            if (!r) return
            setCreating(false)
            setCreated(r)
            list.setItems((xs) => [r.app, ...xs.filter((x) => x.id !== r.app.id)])
          }}
        />
      </Dialog>
    </Page>
  )
}
