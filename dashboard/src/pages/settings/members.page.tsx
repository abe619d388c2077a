import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Empty, Notice, Page, PagedList, Table, Time } from '../../ui/components.js'
import { usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { InviteDialog, RemoveDialog, RoleDialog } from './member-dialogs.js'

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
      title="Members"
      actions={
        manages && (
          <button type="button" class="primary" onClick={() => (setNotice(undefined), setOpen({ kind: 'invite' }))}>
            Invite member
          </button>
        )
      }
    >
      <p class="hint settings-intro">
        Members of the {membership.mode === 'test' ? 'sandbox' : 'live'} mode. Owners manage everyone; admins manage admins and members (and API keys); members work in the
        workspace and see the team. The last owner cannot be removed or demoted.
      </p>
      {notice && <Notice>{notice}</Notice>}
      <PagedList list={members} emptyView={<Empty title="No members in this mode">Invite someone to work here.</Empty>}>
        {(rows) => (
          <Table
            caption="Workspace members"
            rowKey={(m) => m.id}
            rows={rows}
            columns={[
              {
                label: 'Member',
                render: (m) => (
                  <span class="member-who">
                    <span class="member-email">{m.email}</span>
                    {m.id === membership.member_id && <Badge tone="good">you</Badge>}
                    {m.name && <span class="hint member-name">{m.name}</span>}
                  </span>
                ),
              },
              { label: 'Role', render: (m) => <Badge tone={ROLE_TONE[m.role]}>{m.role}</Badge> },
              {
                label: 'Status',
                render: (m) =>
                  m.status === 'active' ? (
                    <Badge tone="good">active</Badge>
                  ) : (
                    <span class="member-status">
                      <Badge tone="warn">invited</Badge>
                      {m.invitation_url && <CopyButton text={m.invitation_url} label="Copy invitation link" />}
                    </span>
                  ),
              },
              { label: 'Invited', render: (m) => <Time iso={m.invited_at} /> },
              { label: 'Joined', render: (m) => (m.joined_at ? <Time iso={m.joined_at} /> : '—') },
              {
                label: 'Actions',
                render: (m) =>
                  mayTouch(m) ? (
                  <span class="row-actions">
                    <button type="button" onClick={() => (setNotice(undefined), setOpen({ kind: 'role', member: m }))}>
                      Change role<span class="visually-hidden"> of {who(m)}</span>
                    </button>
                    <button type="button" class="danger" onClick={() => (setNotice(undefined), setOpen({ kind: 'remove', member: m }))}>
                      Remove<span class="visually-hidden"> {who(m)}</span>
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
          setNotice(`Invited ${m.email} as ${m.role}.`)
        }}
      />
      <RoleDialog
        member={open?.kind === 'role' ? open.member : null}
        self={open?.kind === 'role' && open.member.id === membership.member_id}
        onClose={close}
        onChanged={(m) => {
          replace(m)
          setNotice(`${m.email} is now ${m.role}.`)
          close()
        }}
      />
      <RemoveDialog
        member={open?.kind === 'remove' ? open.member : null}
        self={open?.kind === 'remove' && open.member.id === membership.member_id}
        onClose={close}
        onRemoved={(m) => {
          members.setItems((xs) => xs.filter((x) => x.id !== m.id))
          setNotice(`Removed ${m.email}.`)
          close()
        }}
      />
    </Page>
  )
}
