import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Field, FormActions, SecretOnce } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { t } from '../../i18n/index.js'
import { EmailFields, PhoneFields, WebChatFields } from './channel-fields.js'
import { createBodyOf, emptyForm, type ChannelForm } from './channel-form.js'
import { BotField, CHANNEL_TYPES, typeLabel, type Channel, type ChannelType } from './channels.shared.js'
import { HoursEditor, hoursValid } from './hours-editor.js'
import { defaultHours, hoursOfForm, type HoursForm } from './hours-form.js'
import { Snippet } from './snippet.js'

/**
 * "New channel": the type, then its own fields, the bot and the business hours. A web chat channel's answer
 * is shown before the dialog closes: its snippet and, with identity verification, the identity secret,
 * which the API shows this once (dropped from memory when the dialog closes).
 */
export function CreateChannelDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (c: Channel) => void }) {
  const { api } = useWorkspace()
  const [f, setF] = useState<ChannelForm>(emptyForm)
  const [hours, setHours] = useState<HoursForm>(defaultHours)
  const [made, setMade] = useState<Channel | null>(null)
  useEffect(() => {
    if (!open) return
    setF(emptyForm())
    setHours(defaultHours())
    setMade(null)
  }, [open])
  const set = <K extends keyof ChannelForm>(k: K, v: ChannelForm[K]) => setF((x) => ({ ...x, [k]: v }))
  const create = useAction(async () => {
    const c = await ok(api.client.POST('/channels', { body: createBodyOf(f, hoursOfForm(hours)) }))
    // The list keeps the channel without its identity secret: the secret is shown in this dialog only.
    onCreated({ ...c, web_chat: c.web_chat && { ...c.web_chat, identity_secret: undefined } })
    if (c.type === 'web_chat') setMade(c)
    else close()
  })
  const close = () => {
    create.clear()
    setMade(null)
    onClose()
  }
  return (
    <Dialog open={open} title={made ? t('channels.create.channelCreated') : t('channels.create.newChannel')} onClose={close}>
      {made?.web_chat ? (
        <>
          {made.web_chat.identity_secret ? (
            <SecretOnce label={t('channels.detail.identitySecret')} value={made.web_chat.identity_secret}>
              <p class="hint">{t('channels.detail.identitySecretUse')}</p>
            </SecretOnce>
          ) : null}
          <Snippet c={made} />
          <div class="form-actions">
            <a class="button" href={`/dashboard/channels/${made.id}`} onClick={close}>
              {t('channels.create.openChannel')}
            </a>
            <button type="button" class="primary" onClick={close}>
              {t('channels.create.done')}
            </button>
          </div>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void create.run()
          }}
        >
          <Field label={t('channels.create.type')}>
            {(id) => (
              <select id={id} value={f.type} onChange={(e) => set('type', e.currentTarget.value as ChannelType)}>
                {CHANNEL_TYPES.map((type) => (
                  <option value={type}>{typeLabel(type)}</option>
                ))}
              </select>
            )}
          </Field>
          <Field label={t('channels.form.name')} hint={t('channels.form.nameHint')}>
            {(id, d) => <input id={id} required maxLength={100} aria-describedby={d} value={f.name} onInput={(e) => set('name', e.currentTarget.value)} />}
          </Field>
          {(f.type === 'sms' || f.type === 'whatsapp') && <PhoneFields f={f} set={set} />}
          {f.type === 'web_chat' && <WebChatFields f={f} set={set} />}
          {f.type === 'email' && <EmailFields f={f} set={set} />}
          <BotField value={f.bot_id} onChange={(v) => set('bot_id', v)} />
          <HoursEditor value={hours} onChange={setHours} />
          <FormActions action={create} label={t('channels.create.createChannel')} busyLabel={t('channels.create.creating')} disabled={!hoursValid(hours)} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
