import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { CopyButton, Dialog, Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Member } from './members.page.js'
import { statusLabel, t, tx } from '../../i18n/index.js'

type Role = components['schemas']['WorkspaceMemberRole']
const roles = (): { value: Role; label: string }[] => [
  { value: 'member', label: t('settings.roles.member') },
  { value: 'admin', label: t('settings.roles.admin') },
  { value: 'owner', label: t('settings.roles.owner') },
]

function RoleSelect({ value, onChange }: { value: Role; onChange: (r: Role) => void }) {
  // Only owners make owners (the API answers 403 insufficient_role otherwise).
  const { membership } = useWorkspace()
  const offered = roles().filter((r) => r.value !== 'owner' || membership.role === 'owner')
  return (
    <Field label={t('settings.memberDialogs.role')}>
      {(id) => (
        <select id={id} value={value} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Role)}>
          {offered.map((r) => (
            <option value={r.value}>{r.label}</option>
          ))}
        </select>
      )}
    </Field>
  )
}

/** Invites by email: the API makes an `invited` member with a link to pass on (it sends no email itself). */
export function InviteDialog({ open, onClose, onInvited }: { open: boolean; onClose: () => void; onInvited: (m: Member) => void }) {
  const { api, membership } = useWorkspace()
  const [email, setEmail] = useState('')
  const [name, setName] = useState('')
  const [role, setRole] = useState<Role>('member')
  const [made, setMade] = useState<Member | null>(null)
  const invite = useAction(async () => {
    const m = await ok(api.client.POST('/workspaces/{id}/members', { params: { path: { id: membership.workspace_id } }, body: { email: email.trim(), name: name.trim() || undefined, role } }))
    setMade(m)
    onInvited(m)
  })
  const close = () => {
    setEmail('')
    setName('')
    setRole('member')
    setMade(null)
    invite.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={made ? t('settings.memberDialogs.invitationCreated') : t('settings.memberDialogs.inviteAMember')} onClose={close}>
      {made ? (
        <>
          <p>{tx('settings.memberDialogs.invitedAs', { email: <strong>{made.email}</strong> }, { role: t(`role.${made.role}`) })}</p>
          {made.invitation_url && (
            <div class="secret-row">
              <code class="wrap-anywhere" data-testid="invitation-url">
                {made.invitation_url}
              </code>
              <CopyButton text={made.invitation_url} />
            </div>
          )}
          <div class="form-actions">
            <button type="button" class="primary" onClick={close}>
              {t('settings.memberDialogs.done')}
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void invite.run()
          }}
        >
          <Field label={t('settings.memberDialogs.email')}>
            {(id) => <input id={id} type="email" required autoComplete="off" value={email} onInput={(e) => setEmail((e.target as HTMLInputElement).value)} />}
          </Field>
          <Field label={t('settings.memberDialogs.name')} hint={t('settings.memberDialogs.optional')}>
            {(id, d) => <input id={id} aria-describedby={d} maxLength={200} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}
          </Field>
          <RoleSelect value={role} onChange={setRole} />
          <FormActions action={invite} label={t('settings.memberDialogs.sendInvitation')} busyLabel={t('settings.memberDialogs.inviting')} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}

export function RoleDialog({ member, self, onClose, onChanged }: { member: Member | null; self: boolean; onClose: () => void; onChanged: (m: Member) => void }) {
  const { api, membership, refreshSession } = useWorkspace()
  const [role, setRole] = useState<Role>('member')
  useEffect(() => {
    if (member) setRole(member.role)
  }, [member])
  const change = useAction(async (m: Member) => {
    onChanged(await ok(api.client.PATCH('/workspaces/{id}/members/{member_id}', { params: { path: { id: membership.workspace_id, member_id: m.id } }, body: { role } })))
    // One's own role decides what the dashboard offers (and the token's scopes): read it again.
    if (self) await refreshSession().catch(() => undefined)
  })
  const close = () => (change.clear(), onClose())
  return (
    <Dialog open={member !== null} title={t('settings.memberDialogs.changeRole')} onClose={close}>
      {member && (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void change.run(member)
          }}
        >
          <p>{tx('settings.memberDialogs.roleOfNow', { email: <strong>{member.email}</strong> }, { role: t(`role.${member.role}`) })}</p>
          <RoleSelect value={role} onChange={setRole} />
          {self && <p class="hint">{t('settings.memberDialogs.thisIsYouALower')}</p>}
          <FormActions action={change} label={t('settings.memberDialogs.saveRole')} busyLabel={t('settings.integrationForms.saving')} disabled={role === member.role} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}

export function RemoveDialog({ member, self, onClose, onRemoved }: { member: Member | null; self: boolean; onClose: () => void; onRemoved: (m: Member) => void }) {
  const { api, membership } = useWorkspace()
  const remove = useAction(async (m: Member) => onRemoved(await ok(api.client.DELETE('/workspaces/{id}/members/{member_id}', { params: { path: { id: membership.workspace_id, member_id: m.id } } }))))
  const close = () => (remove.clear(), onClose())
  return (
    <Dialog open={member !== null} title={t('settings.memberDialogs.removeMember')} onClose={close}>
      {member && (
        <>
          <p>
            {tx(
              'settings.memberDialogs.removeConfirm',
              { email: <strong>{member.email}</strong> },
              { role: t(`role.${member.role}`), status: statusLabel(member.status), mode: t(membership.mode === 'test' ? 'overview.mode.test' : 'overview.mode.live') },
            )}
            {member.status === 'invited' ? t('settings.memberDialogs.theirInvitationLinkStopsWorking') : t('settings.memberDialogs.theyLoseAccessAtOnce')}
          </p>
          {self && <p class="notice notice-warn">{t('settings.memberDialogs.thisIsYouYouWill')}</p>}
          <FormActions
            action={remove}
            label={t('settings.memberDialogs.removeMember')}
            busyLabel={t('settings.integrationForms.removing')}
            tone="danger"
            onConfirm={() => void remove.run(member)}
            onCancel={close}
          />
        </>
      )}
    </Dialog>
  )
}
