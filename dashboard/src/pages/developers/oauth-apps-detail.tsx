import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok, type Api } from '../../api/client.js'
import { ApiProblem } from '../../api/problem.js'
import { Async, Badge, CopyButton, Dialog, Field, FormActions, Notice, Page, SecretOnce, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { OAUTH_APPS_PATH, OAuthAppForm, ScopeList, type AppDraft, type OAuthApp } from './oauth-apps-form.js'
import './tools.css'

/** The API has no getOAuthApp: the app is found by paging the list (a workspace has few apps). */
async function findApp(api: Api, id: string): Promise<OAuthApp> {
  let cursor: string | undefined
  for (;;) {
    const page = await ok(api.client.GET('/oauth/apps', { params: { query: { cursor, limit: 100 } } }))
    const app = page.data.find((a) => a.id === id)
    if (app) return app
    if (!page.has_more || !page.next_cursor) throw new ApiProblem(404, { detail: `No OAuth app ${id} in this workspace and mode.` }, null)
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
    const { client_secret: _none, ...next } = await ok(api.client.PATCH('/oauth/apps', { body: { client_id: a.client_id, name: d.name, redirect_uris: d.redirect_uris, allowed_scopes: d.allowed_scopes } }))
    return next
  })
  const remove = useAction(async (a: OAuthApp) => {
    await ok(api.client.DELETE('/oauth/apps/{id}', { params: { path: { id: a.id } } }))
    route(`${OAUTH_APPS_PATH}?deleted=${encodeURIComponent(a.name)}`)
  })
  const rotate = useAction(async (a: OAuthApp) => ok(api.client.PATCH('/oauth/apps', { body: { client_id: a.client_id, rotate_secret: true, secret_grace_hours: Number(grace) } })))
  return (
    <Page title={app.data?.name ?? 'OAuth app'} actions={<a href={OAUTH_APPS_PATH}>← All OAuth apps</a>}>
      {notice && <Notice>{notice}</Notice>}
      {secret && (
        <div class="panel" role="region" aria-label="New client secret">
          <SecretOnce label="New client secret" value={secret} onDone={() => setSecret(undefined)} doneLabel="Done, I saved it" />
        </div>
      )}
      <Async loading={app.loading} error={app.error} data={app.data} onRetry={app.reload}>
        {(a) => (
          <>
            <section class="panel" aria-labelledby="app-facts">
              <h2 id="app-facts">Details</h2>
              <dl class="facts">
                <dt>Client id</dt>
                <dd>
                  <code>{a.client_id}</code> <CopyButton text={a.client_id} label="Copy client id" />
                </dd>
                <dt>Id</dt>
                <dd><code>{a.id}</code></dd>
                <dt>Type</dt>
                <dd><Badge tone={a.type === 'public' ? 'info' : 'neutral'}>{a.type}</Badge></dd>
                <dt>Environment</dt>
                <dd>{a.livemode ? 'Live (may be authorized for live or sandbox data)' : 'Sandbox (sandbox data only)'}</dd>
                <dt>Client secret</dt>
                <dd>{a.client_secret_prefix ? <><code>{a.client_secret_prefix}…</code> (only its first characters are kept in view)</> : 'none (public app, PKCE)'}</dd>
                <dt>Previous secret valid until</dt>
                <dd><Time iso={a.previous_secret_expires_at} /></dd>
                <dt>Redirect URIs</dt>
                <dd><ul class="uri-list">{a.redirect_uris.map((u) => <li><code>{u}</code></li>)}</ul></dd>
                <dt>Allowed scopes</dt>
                <dd><ScopeList scopes={a.allowed_scopes} /></dd>
                <dt>Created</dt>
                <dd><Time iso={a.created_at} /></dd>
                <dt>Updated</dt>
                <dd><Time iso={a.updated_at} /></dd>
              </dl>
              <div class="form-actions">
                <button type="button" onClick={() => (save.clear(), setEditing(true))}>
                  Edit
                </button>
                {a.type === 'confidential' && (
                  <button type="button" onClick={() => (rotate.clear(), setRotating(true))}>
                    Rotate secret
                  </button>
                )}
                <button type="button" class="danger" onClick={() => (remove.clear(), setDeleting(true))}>
                  Delete app
                </button>
              </div>
            </section>
            <Dialog open={editing} title={`Edit ${a.name}`} onClose={() => setEditing(false)}>
              <OAuthAppForm
                initial={{ name: a.name, type: a.type, redirect_uris: a.redirect_uris, allowed_scopes: a.allowed_scopes as AppDraft['allowed_scopes'] }}
                withType={false}
                submitLabel="Save"
                pending={save.pending}
                error={save.error}
                onCancel={() => setEditing(false)}
                onSubmit={async (d) => {
                  const next = await save.run(a, d)
                  if (!next) return
                  app.set(next)
                  setEditing(false)
                  setNotice('Saved.')
                }}
              />
            </Dialog>
            <Dialog open={deleting} title="Delete this app?" onClose={() => setDeleting(false)}>
              <p>
                <strong>{a.name}</strong> is deleted, and every authorization of it is revoked in every workspace that gave one: its tokens stop working at once and
                its client id is refused from then on. This cannot be undone.
              </p>
              <FormActions action={remove} label="Delete app" busyLabel="Deleting…" tone="danger" onConfirm={() => void remove.run(a)} onCancel={() => setDeleting(false)} />
            </Dialog>
            <Dialog open={rotating} title="Rotate the client secret" onClose={() => setRotating(false)}>
              <form
                onSubmit={async (e) => {
                  e.preventDefault()
                  const r = await rotate.run(a)
                  if (!r) return
                  const { client_secret, ...next } = r
                  app.set(next)
                  setRotating(false)
                  setSecret(client_secret ?? undefined)
                  setNotice('Secret rotated.')
                }}
              >
                <Field label="Grace period (hours)" hint="How long the current secret keeps working: 0 to 168 (0 ends it at once).">
                  {(id, d) => <input id={id} aria-describedby={d} type="number" min={0} max={168} required value={grace} onInput={(e) => setGrace((e.target as HTMLInputElement).value)} />}
                </Field>
                <FormActions action={rotate} label="Rotate secret" busyLabel="Rotating…" tone="danger" onCancel={() => setRotating(false)} />
              </form>
            </Dialog>
          </>
        )}
      </Async>
    </Page>
  )
}
