import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Notice, Page, PagedList, SecretOnce, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { OAUTH_APPS_PATH, OAuthAppForm, ScopeList, type AppDraft, type OAuthApp } from './oauth-apps-form.js'
import './tools.css'

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
      title="OAuth apps"
      actions={
        <button type="button" class="primary" onClick={() => (create.clear(), setCreating(true))}>
          Register an app
        </button>
      }
    >
      <p class="hint">Partner apps that act for a workspace once one of its members consents (OAuth authorization code flow). Client secrets are shown once, when created or rotated.</p>
      {query.deleted && <Notice>App {query.deleted} deleted; its authorizations are revoked.</Notice>}
      {created && (
        <div class="panel" role="region" aria-label="New app">
          <Notice>
            App <strong>{created.app.name}</strong> registered. Client id <code>{created.app.client_id}</code>.
          </Notice>
          {created.secret ? (
            <SecretOnce label="Client secret" value={created.secret} onDone={() => setCreated(undefined)} doneLabel="Done, I saved it" />
          ) : (
            <>
              <p>A public app has no client secret: it uses PKCE.</p>
              <div class="form-actions">
                <button type="button" onClick={() => setCreated(undefined)}>
                  Done
                </button>
              </div>
            </>
          )}
        </div>
      )}
      <PagedList list={list} emptyView={<Empty title="No OAuth apps yet">Register one to let partners act for a workspace with its members’ consent.</Empty>}>
        {(rows) => (
          <Table
            caption="OAuth apps, newest first"
            rowKey={(a) => a.id}
            rows={rows}
            columns={[
              { label: 'Name', render: (a) => <a href={`${OAUTH_APPS_PATH}/${a.id}`}>{a.name}</a> },
              { label: 'Client id', render: (a) => <code>{a.client_id}</code> },
              { label: 'Type', render: (a) => <Badge tone={a.type === 'public' ? 'info' : 'neutral'}>{a.type}</Badge> },
              { label: 'Redirect URIs', render: (a) => <ul class="uri-list">{a.redirect_uris.map((u) => <li><code>{u}</code></li>)}</ul> },
              { label: 'Scopes', render: (a) => <ScopeList scopes={a.allowed_scopes} /> },
              { label: 'Created', render: (a) => <Time iso={a.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={creating} title="Register an OAuth app" onClose={() => setCreating(false)}>
        <OAuthAppForm
          initial={EMPTY}
          withType
          submitLabel="Register"
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
