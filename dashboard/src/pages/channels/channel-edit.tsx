import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Field, FormActions, SecretOnce } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { t } from '../../i18n/index.js'
import { EmailFields, PhoneFields, WebChatFields } from './channel-fields.js'
import { formOf, patchOf, type ChannelForm } from './channel-form.js'
import { BotField, isPhone, typeLabel, type Channel } from './channels.shared.js'

/** Every field the API lets change after creation (the type, number and provider stay; business hours have their own panel). */
export function EditChannelDialog({ channel: c, open, onClose, onSaved }: { channel: Channel; open: boolean; onClose: () => void; onSaved: (c: Channel) => void }) {
  const { api } = useWorkspace()
  const [f, setF] = useState<ChannelForm>(() => formOf(c))
  // Filled from the channel each time the dialog opens; while open, a refused save keeps what was typed.
  useEffect(() => {
    if (open) setF(formOf(c))
  }, [open])
  const set = <K extends keyof ChannelForm>(k: K, v: ChannelForm[K]) => setF((x) => ({ ...x, [k]: v }))
  const save = useAction(async () => {
    const body = patchOf(c, f)
    onSaved(Object.keys(body).length === 0 ? c : await ok(api.client.PATCH('/channels/{id}', { params: { path: { id: c.id } }, body })))
  })
  const close = () => {
    save.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={t('channels.edit.editChannel', { type: typeLabel(c.type) })} onClose={close}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save.run()
        }}
      >
        <Field label={t('channels.form.name')}>{(id) => <input id={id} required maxLength={100} value={f.name} onInput={(e) => set('name', e.currentTarget.value)} />}</Field>
        {isPhone(c.type) && <PhoneFields f={f} set={set} editing tokenSet={c.credentials.auth_token_set} />}
        {c.type === 'web_chat' && <WebChatFields f={f} set={set} />}
        {c.type === 'email' && (
          <EmailFields
            f={f}
            set={set}
            editing
            passwordSet={c.email?.relay?.password_set ?? false}
            webhookPasswordSet={c.email?.inbound.webhook_password_set ?? false}
            signingKeySet={c.email?.inbound.mailgun_signing_key_set ?? false}
            sendgridKeySet={c.email?.inbound.sendgrid_signed ?? false}
            sendgridEventsKeySet={c.email?.inbound.sendgrid_events ?? false}
          />
        )}
        <BotField value={f.bot_id} keep={c.bot_id} onChange={(v) => set('bot_id', v)} />
        <FormActions action={save} label={t('channels.edit.saveChanges')} busyLabel={t('channels.edit.saving')} onCancel={close} />
      </form>
    </Dialog>
  )
}

/** Asks first, and says what stays: the channel's conversations remain in the inbox; replies in them then fail. */
export function DeleteChannelDialog({ channel: c, open, onClose, onDeleted }: { channel: Channel; open: boolean; onClose: () => void; onDeleted: () => void }) {
  const { api } = useWorkspace()
  const del = useAction(async () => {
    await ok(api.client.DELETE('/channels/{id}', { params: { path: { id: c.id } } }))
    onDeleted()
  })
  const close = () => {
    del.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={t('channels.edit.deleteThisChannel')} onClose={close}>
      <p>{t('channels.edit.deleteExplains', { name: c.name })}</p>
      <p>{t('channels.edit.conversationsStay')}</p>
      <FormActions action={del} label={t('channels.edit.deleteChannel')} busyLabel={t('channels.edit.deleting')} tone="danger" onConfirm={() => void del.run()} onCancel={close} />
    </Dialog>
  )
}

/** A new identity secret replaces the old one at once (the host's signatures with the old one stop working); shown once. */
export function RotateSecretDialog({ channel: c, open, onClose, onRotated }: { channel: Channel; open: boolean; onClose: () => void; onRotated: (c: Channel) => void }) {
  const { api } = useWorkspace()
  const [secret, setSecret] = useState<string | null>(null)
  const rotate = useAction(async () => {
    const next = await ok(api.client.PATCH('/channels/{id}', { params: { path: { id: c.id } }, body: { web_chat: { rotate_identity_secret: true } } }))
    setSecret(next.web_chat?.identity_secret ?? null)
    // The page keeps the channel without the secret: it is shown in this dialog only.
    onRotated({ ...next, web_chat: next.web_chat && { ...next.web_chat, identity_secret: undefined } })
  })
  const close = () => {
    rotate.clear()
    setSecret(null)
    onClose()
  }
  return (
    <Dialog open={open} title={secret ? t('channels.edit.newIdentitySecret') : t('channels.edit.rotateIdentitySecret')} onClose={close}>
      {secret ? (
        <SecretOnce label={t('channels.detail.identitySecret')} value={secret} onDone={close}>
          <p class="hint">{t('channels.detail.identitySecretUse')}</p>
        </SecretOnce>
      ) : (
        <>
          <p>{t('channels.edit.rotateExplains')}</p>
          <FormActions action={rotate} label={t('channels.edit.rotate')} busyLabel={t('channels.edit.rotating')} tone="danger" onConfirm={() => void rotate.run()} onCancel={close} />
        </>
      )}
    </Dialog>
  )
}
