import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok, type Api } from '../../api/client.js'
import { ApiProblem } from '../../api/problem.js'
import { Async, Badge, CopyButton, Dialog, Field, FormActions, Notice, Page, SecretOnce, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { OAUTH_APPS_PATH, OAuthAppForm, ScopeList, type AppDraft, type OAuthApp } from './oauth-apps-form.js'
import './tools.css'
import { statusLabel, t } from '../../i18n/index.js'

/** The API has no getOAuthApp: the app is found by paging the list (a workspace has few apps). */
async function findApp(api: Api, id: string): Promise<OAuthApp> {
  let cursor: string | undefined
  for (;;) {
    const page = await ok(api.client.GET('/oauth/apps', { params: { query: { cursor, limit: 100 } } }))
    const app = page.data.find((a) => a.id === id)
    if (app) return app
    if (!page.has_more || !page.next_cursor) throw new ApiProblem(404, { detail: t('developers.oauthAppsDetail.noOauthAppIdIn', { id }) }, null)
    cursor = page.next_cursor
  }
}

/** /dashboard/developers/oauth-apps/:id: one app — client id, redirect URIs, scopes; edit it, rotate its secret or delete it. */
export function OAuthAppDetail() {
  const { params } = useRoute()
  const { route } = useLocation()
  const { api } = useWorkspace()
  const app = useResource((a) => findApp(a, params.id ?? ''), [params.id])
  const [editing, setEditing] = useState(false)
  const [rotating, setRotating] = useState(false)
  const [deleting, setDeleting] = useState(false)
  const [grace, setGrace] = useState('24')
  const [notice, setNotice] = useState<string>()
  const [secret, setSecret] = useState<string>()
  const save = useAction(async (a: OAuthApp, d: AppDraft) => {
    const { client_secret: _none, ...next } = await ok(
      api.client.PATCH('/oauth/apps', { body: { client_id: a.client_id, name: d.name, redirect_uris: d.redirect_uris, allowed_scopes: d.allowed_scopes } }),
    )
    return next
  })
  const remove = useAction(async (a: OAuthApp) => {
    await ok(api.client.DELETE('/oauth/apps/{id}', { params: { path: { id: a.id } } }))
    route(`${OAUTH_APPS_PATH}?deleted=${encodeURIComponent(a.name)}`)
  })
  const rotate = useAction(async (a: OAuthApp) => ok(api.client.PATCH('/oauth/apps', { body: { client_id: a.client_id, rotate_secret: true, secret_grace_hours: Number(grace) } })))
  return (
    <Page title={app.data?.name ?? t('developers.logsDetail.oauthApp')} actions={<a href={OAUTH_APPS_PATH}>{t('developers.oauthAppsDetail.allOauthApps')}</a>}>
      {notice && <Notice>{notice}</Notice>}
      {secret && (
        <div class="panel" role="region" aria-label={t('developers.oauthAppsDetail.newClientSecret')}>
          <SecretOnce label={t('developers.oauthAppsDetail.newClientSecret')} value={secret} onDone={() => setSecret(undefined)} doneLabel={t('developers.oauthAppsDetail.doneISavedIt')} />
        </div>
      )}
      <Async loading={app.loading} error={app.error} data={app.data} onRetry={app.reload}>
        {(a) => (
          <>
            <section class="panel" aria-labelledby="app-facts">
              <h2 id="app-facts">{t('developers.oauthAppsDetail.details')}</h2>
              <dl class="facts">
                <dt>{t('developers.oauthAppsDetail.clientId')}</dt>
                <dd>
                  <code>{a.client_id}</code> <CopyButton text={a.client_id} label={t('developers.oauthAppsDetail.copyClientId')} />
                </dd>
                <dt>{t('developers.oauthAppsDetail.id')}</dt>
                <dd>
                  <code>{a.id}</code>
                </dd>
                <dt>{t('developers.oauthAppsDetail.type')}</dt>
                <dd>
                  <Badge tone={a.type === 'public' ? 'info' : 'neutral'}>{statusLabel(a.type)}</Badge>
                </dd>
                <dt>{t('developers.oauthAppsDetail.environment')}</dt>
                <dd>{a.livemode ? t('developers.oauthAppsDetail.liveMayBeAuthorizedFor') : t('developers.oauthAppsDetail.sandboxSandboxDataOnly')}</dd>
                <dt>{t('developers.oauthAppsDetail.clientSecret')}</dt>
                <dd>
                  {a.client_secret_prefix ? (
                    <>
                      <code>{a.client_secret_prefix}…</code> {t('developers.oauthAppsDetail.onlyItsFirstCharactersAre')}
                    </>
                  ) : (
                    t('developers.oauthAppsDetail.nonePublicAppPkce')
                  )}
                </dd>
                <dt>{t('developers.oauthAppsDetail.previousSecretValidUntil')}</dt>
                <dd>
                  <Time iso={a.previous_secret_expires_at} />
                </dd>
                <dt>{t('developers.oauthAppsDetail.redirectUris')}</dt>
                <dd>
                  <ul class="uri-list">
                    {a.redirect_uris.map((u) => (
                      <li>
                        <code>{u}</code>
                      </li>
                    ))}
                  </ul>
                </dd>
                <dt>{t('developers.oauthAppsDetail.allowedScopes')}</dt>
                <dd>
                  <ScopeList scopes={a.allowed_scopes} />
                </dd>
                <dt>{t('developers.deliveriesDetail.created')}</dt>
                <dd>
                  <Time iso={a.created_at} />
                </dd>
                <dt>{t('developers.oauthAppsDetail.updated')}</dt>
                <dd>
                  <Time iso={a.updated_at} />
                </dd>
              </dl>
              <div class="form-actions">
                <button type="button" onClick={() => (save.clear(), setEditing(true))}>
                  {t('developers.oauthAppsDetail.edit')}
                </button>
                {a.type === 'confidential' && (
                  <button type="button" onClick={() => (rotate.clear(), setRotating(true))}>
                    {t('developers.oauthAppsDetail.rotateSecret')}
                  </button>
                )}
                <button type="button" class="danger" onClick={() => (remove.clear(), setDeleting(true))}>
                  {t('developers.oauthAppsDetail.deleteApp')}
                </button>
              </div>
            </section>
            <Dialog open={editing} title={t('developers.oauthAppsDetail.editName', { name: a.name })} onClose={() => setEditing(false)}>
              <OAuthAppForm
                initial={{ name: a.name, type: a.type, redirect_uris: a.redirect_uris, allowed_scopes: a.allowed_scopes as AppDraft['allowed_scopes'] }}
                withType={false}
                submitLabel={t('developers.oauthAppsDetail.save')}
                pending={save.pending}
                error={save.error}
                onCancel={() => setEditing(false)}
                onSubmit={async (d) => {
                  const next = await save.run(a, d)
                  if (!next) return
                  app.set(next)
                  setEditing(false)
                  setNotice(t('developers.oauthAppsDetail.saved'))
                }}
              />
            </Dialog>
            <Dialog open={deleting} title={t('developers.oauthAppsDetail.deleteThisApp')} onClose={() => setDeleting(false)}>
              <p>
                <strong>{a.name}</strong> {t('developers.oauthAppsDetail.isDeletedAndEveryAuthorization')}
              </p>
              <FormActions
                action={remove}
                label={t('developers.oauthAppsDetail.deleteApp')}
                busyLabel={t('developers.oauthAppsDetail.deleting')}
                tone="danger"
                onConfirm={() => void remove.run(a)}
                onCancel={() => setDeleting(false)}
              />
            </Dialog>
            <Dialog open={rotating} title={t('developers.oauthAppsDetail.rotateTheClientSecret')} onClose={() => setRotating(false)}>
              <form
                onSubmit={async (e) => {
                  e.preventDefault()
                  const r = await rotate.run(a)
                  if (!r) return
                  const { client_secret, ...next } = r
                  app.set(next)
                  setRotating(false)
                  setSecret(client_secret ?? undefined)
                  setNotice(t('developers.oauthAppsDetail.secretRotated'))
                }}
              >
                <Field label={t('developers.oauthAppsDetail.gracePeriodHours')} hint={t('developers.oauthAppsDetail.howLongTheCurrentSecret')}>
                  {(id, d) => <input id={id} aria-describedby={d} type="number" min={0} max={168} required value={grace} onInput={(e) => setGrace((e.target as HTMLInputElement).value)} />}
                </Field>
                <FormActions
                  action={rotate}
                  label={t('developers.oauthAppsDetail.rotateSecret')}
                  busyLabel={t('developers.oauthAppsDetail.rotating')}
                  tone="danger"
                  onCancel={() => setRotating(false)}
                />
              </form>
            </Dialog>
          </>
        )}
      </Async>
    </Page>
  )
}
