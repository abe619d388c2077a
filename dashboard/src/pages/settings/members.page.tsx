import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Empty, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { InviteDialog, RemoveDialog, RoleDialog } from './member-dialogs.js'
import { t } from '../../i18n/index.js'

export type Member = components['schemas']['WorkspaceMember']
type Open = { kind: 'invite' } | { kind: 'role'; member: Member } | { kind: 'remove'; member: Member } | null

const ROLE_TONE = { owner: 'info', admin: 'neutral', member: 'neutral' } as const

/**
 * /dashboard/settings/members: the members of this workspace in the current mode (live and sandbox have
 * their own), inviting, changing roles and removing. The API enforces the rules (the last owner stays).
 */
export default function Members() {
  const { membership } = useWorkspace()
  // What the API lets this member do (docs/workspaces.md "Roles bind people"): offered only then.
  const manages = membership.role === 'owner' || membership.role === 'admin'
  const mayTouch = (m: Member) => membership.role === 'owner' || (membership.role === 'admin' && m.role !== 'owner')
  const members = usePaged((api, cursor) => ok(api.client.GET('/workspaces/{id}/members', { params: { path: { id: membership.workspace_id }, query: { cursor, limit: 50 } } })))
  const [open, setOpen] = useState<Open>(null)
  const [notice, setNotice] = useState<string>()
  const replace = (m: Member) => members.setItems((xs) => xs.map((x) => (x.id === m.id ? m : x)))
  const close = () => setOpen(null)
  const who = (m: Member) => m.name ?? m.email
  return (
    <Page
      title={t('settings.index.members')}
      actions={
        manages && (
          <button type="button" class="primary" onClick={() => (setNotice(undefined), setOpen({ kind: 'invite' }))}>
            {t('settings.members.inviteMember')}
          </button>
        )
      }
    >
      <p class="hint settings-intro">
        {t('settings.members.membersOfThe')} {membership.mode === 'test' ? 'sandbox' : 'live'} {t('settings.members.modeOwnersManageEveryoneAdmins')}
      </p>
      {notice && <Notice>{notice}</Notice>}
      <PagedList list={members} emptyView={<Empty title={t('settings.members.noMembersInThisMode')}>{t('settings.members.inviteSomeoneToWorkHere')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('settings.members.workspaceMembers')}
            rowKey={(m) => m.id}
            rows={rows}
            columns={[
              {
                label: t('settings.members.member'),
                render: (m) => (
                  <span class="member-who">
                    <span class="member-email">{m.email}</span>
                    {m.id === membership.member_id && <Badge tone="good">{t('settings.members.you')}</Badge>}
                    {m.name && <span class="hint member-name">{m.name}</span>}
                  </span>
                ),
              },
              { label: t('settings.memberDialogs.role'), render: (m) => <Badge tone={ROLE_TONE[m.role]}>{t(`role.${m.role}`)}</Badge> },
              {
                label: t('settings.members.status'),
                render: (m) =>
                  m.status === 'active' ? (
                    <Badge tone="good">{t('settings.members.active')}</Badge>
                  ) : (
                    <span class="member-status">
                      <Badge tone="warn">{t('settings.members.invited')}</Badge>
                      {m.invitation_url && <CopyButton text={m.invitation_url} label={t('settings.members.copyInvitationLink')} />}
                    </span>
                  ),
              },
              { label: t('settings.members.invited2'), render: (m) => <Time iso={m.invited_at} /> },
              { label: t('settings.members.joined'), render: (m) => (m.joined_at ? <Time iso={m.joined_at} /> : '—') },
              {
                label: t('settings.members.actions'),
                render: (m) =>
                  mayTouch(m) ? (
                    <span class="row-actions">
                      <button type="button" onClick={() => (setNotice(undefined), setOpen({ kind: 'role', member: m }))}>
                        {t('settings.memberDialogs.changeRole')}
                        <span class="visually-hidden"> {t('settings.members.ofM', { m: who(m) })}</span>
                      </button>
                      <button type="button" class="danger" onClick={() => (setNotice(undefined), setOpen({ kind: 'remove', member: m }))}>
                        {t('settings.memberDialogs.remove')}
                        <span class="visually-hidden"> {who(m)}</span>
                      </button>
                    </span>
                  ) : (
                    '—'
                  ),
              },
            ]}
          />
        )}
      </PagedList>
      <InviteDialog
        open={open?.kind === 'invite'}
        onClose={close}
        onInvited={(m) => {
          members.setItems((xs) => [...xs, m])
          setNotice(t('settings.members.invitedEmailAsRole', { email: m.email, role: t(`role.${m.role}`) }))
        }}
      />
      <RoleDialog
        member={open?.kind === 'role' ? open.member : null}
        self={open?.kind === 'role' && open.member.id === membership.member_id}
        onClose={close}
        onChanged={(m) => {
          replace(m)
          setNotice(t('settings.members.emailIsNowRole', { email: m.email, role: t(`role.${m.role}`) }))
          close()
        }}
      />
      <RemoveDialog
        member={open?.kind === 'remove' ? open.member : null}
        self={open?.kind === 'remove' && open.member.id === membership.member_id}
        onClose={close}
        onRemoved={(m) => {
          members.setItems((xs) => xs.filter((x) => x.id !== m.id))
          setNotice(t('settings.members.removedEmail', { email: m.email }))
          close()
        }}
      />
    </Page>
  )
}
