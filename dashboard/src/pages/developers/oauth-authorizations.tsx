import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, Dialog, Empty, FormActions, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import './tools.css'
import { statusLabel, t } from '../../i18n/index.js'

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
    setNotice(t('developers.oauthAuthorizations.revokedValueForMemberid', { value: a.app_name ?? a.client_id, memberId: emailOf(a.member_id) }))
  })
  const close = () => (revoke.clear(), setConfirming(null))
  return (
    <Page title={t('developers.oauthAuthorizations.authorizedApps')}>
      <p class="hint">
        {t('developers.oauthAuthorizations.appsThatMembersOfThis')}
        {membership.mode === 'test' ? 'sandbox' : 'live'} {t('developers.oauthAuthorizations.dataWhoeverPublishesThemA')}
      </p>
      {notice && <Notice>{notice}</Notice>}
      <PagedList list={list} emptyView={<Empty title={t('developers.oauthAuthorizations.noAuthorizedApps')}>{t('developers.oauthAuthorizations.whenAMemberAuthorizesAn')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('developers.oauthAuthorizations.authorizedAppsNewestFirst')}
            rowKey={(a) => a.id}
            rows={rows}
            columns={[
              {
                label: t('developers.oauthAppsList.app'),
                render: (a) =>
                  a.app_name ? (
                    <>
                      {a.app_name} <code>{a.client_id}</code>
                    </>
                  ) : (
                    <>
                      <span class="hint">{t('developers.oauthAuthorizations.deletedApp')}</span> <code>{a.client_id}</code>
                    </>
                  ),
              },
              { label: t('developers.oauthAuthorizations.authorizedBy'), render: (a) => emailOf(a.member_id) },
              { label: t('developers.keysPage.scopes'), render: (a) => <code>{a.scopes.join(' ')}</code> },
              { label: t('developers.oauthAuthorizations.authorized'), render: (a) => <Time iso={a.created_at} /> },
              {
                label: t('developers.deliveriesDetail.status'),
                render: (a) => (
                  <>
                    <Badge tone={TONE[a.status]}>{statusLabel(a.status)}</Badge>
                    {a.revoked_reason && <span class="hint"> {a.revoked_reason}</span>}
                  </>
                ),
              },
              {
                label: t('developers.oauthAuthorizations.actions'),
                render: (a) =>
                  a.status === 'revoked' ? null : (
                    <button type="button" class="danger" onClick={() => (revoke.clear(), setConfirming(a))}>
                      {t('developers.keysPage.revoke')}
                      <span class="visually-hidden"> {a.app_name ?? a.client_id}</span>
                    </button>
                  ),
              },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={confirming !== null} title={t('developers.oauthAuthorizations.revokeThisAuthorization')} onClose={close}>
        {confirming && (
          <>
            <p>
              <strong>{confirming.app_name ?? confirming.client_id}</strong> {t('developers.oauthAuthorizations.losesTheAccessMemberidGave', { memberId: emailOf(confirming.member_id) })}
            </p>
            <FormActions
              action={revoke}
              label={t('developers.keysPage.revoke')}
              busyLabel={t('developers.oauthAuthorizations.revoking')}
              tone="danger"
              onConfirm={() => void revoke.run(confirming)}
              onCancel={close}
            />
          </>
        )}
      </Dialog>
    </Page>
  )
}
