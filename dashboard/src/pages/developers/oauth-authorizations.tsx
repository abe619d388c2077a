import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Dialog, Empty, FormActions, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import './tools.css'

type Authorization = components['schemas']['OAuthAuthorization']
const TONE = { active: 'good', expired: 'neutral', revoked: 'bad' } as const

/**
 * /dashboard/developers/authorized-apps: the apps this workspace's members authorized in this mode (whoever
 * publishes them), who consented and to what; Revoke ends one and every token from it at once.
 */
export function OAuthAuthorizationsPage() {
  const { api, membership } = useWorkspace()
  const list = usePaged((api, cursor) => ok(api.client.GET('/oauth/authorizations', { params: { query: { cursor, limit: 20 } } })))
  // Members by id, to name who consented (one page: a workspace has few members; an unknown id stays an id).
  const members = useResource((a) => ok(a.client.GET('/workspaces/{id}/members', { params: { path: { id: membership.workspace_id }, query: { limit: 100 } } })), [membership.workspace_id])
  const emailOf = (id: string) => members.data?.data.find((m) => m.id === id)?.email ?? id
  const [confirming, setConfirming] = useState<Authorization | null>(null)
  const [notice, setNotice] = useState<string>()
  const revoke = useAction(async (a: Authorization) => {
    const updated = await ok(api.client.POST('/oauth/authorizations/{id}/revoke', { params: { path: { id: a.id } } }))
    list.setItems((xs) => xs.map((x) => (x.id === updated.id ? updated : x)))
    setConfirming(null)
    setNotice(`Revoked ${a.app_name ?? a.client_id} for ${emailOf(a.member_id)}.`)
  })
  const close = () => (revoke.clear(), setConfirming(null))
  return (
    <Page title="Authorized apps">
      <p class="hint">
        Apps that members of this workspace allowed to act for it ({membership.mode === 'test' ? 'sandbox' : 'live'} data), whoever publishes them. A member who is removed or
        given a lower role loses every authorization they gave.
      </p>
      {notice && <Notice>{notice}</Notice>}
      <PagedList list={list} emptyView={<Empty title="No authorized apps">When a member authorizes an OAuth app for this workspace, it is listed here.</Empty>}>
        {(rows) => (
          <Table
            caption="Authorized apps, newest first"
            rowKey={(a) => a.id}
            rows={rows}
            columns={[
              { label: 'App', render: (a) => (a.app_name ? <>{a.app_name} <code>{a.client_id}</code></> : <><span class="hint">deleted app</span> <code>{a.client_id}</code></>) },
              { label: 'Authorized by', render: (a) => emailOf(a.member_id) },
              { label: 'Scopes', render: (a) => <code>{a.scopes.join(' ')}</code> },
              { label: 'Authorized', render: (a) => <Time iso={a.created_at} /> },
              {
                label: 'Status',
                render: (a) => (
                  <>
                    <Badge tone={TONE[a.status]}>{a.status}</Badge>
                    {a.revoked_reason && <span class="hint"> {a.revoked_reason}</span>}
                  </>
                ),
              },
              {
                label: 'Actions',
                render: (a) =>
                  a.status === 'revoked' ? null : (
                    <button type="button" class="danger" onClick={() => (revoke.clear(), setConfirming(a))}>
                      Revoke<span class="visually-hidden"> {a.app_name ?? a.client_id}</span>
                    </button>
                  ),
              },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={confirming !== null} title="Revoke this authorization?" onClose={close}>
        {confirming && (
          <>
            <p>
              <strong>{confirming.app_name ?? confirming.client_id}</strong> loses the access {emailOf(confirming.member_id)} gave it: its tokens stop working at once, and it must
              ask a member again.
            </p>
            <FormActions action={revoke} label="Revoke" busyLabel="Revoking…" tone="danger" onConfirm={() => void revoke.run(confirming)} onCancel={close} />
          </>
        )}
      </Dialog>
    </Page>
  )
}
