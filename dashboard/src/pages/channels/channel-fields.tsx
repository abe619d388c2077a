import { Field } from '../../ui/components.js'
import { useWorkspace } from '../../ui/workspace.js'
import { t } from '../../i18n/index.js'
import type { ChannelForm } from './channel-form.js'
import { useEmailChannels } from './channels.shared.js'

type Set = <K extends keyof ChannelForm>(k: K, v: ChannelForm[K]) => void
const text = (set: Set, k: keyof ChannelForm) => (e: Event) => set(k, (e.target as HTMLInputElement).value as never)
const check = (set: Set, k: keyof ChannelForm) => (e: Event) => set(k, (e.target as HTMLInputElement).checked as never)

/**
 * SMS and WhatsApp: the number and the provider (simulated, or Twilio with its account). `editing`: the
 * number and provider stay (the API changes neither) and an empty auth token keeps the stored one.
 */
export function PhoneFields({ f, set, editing = false, tokenSet = false }: { f: ChannelForm; set: Set; editing?: boolean; tokenSet?: boolean }) {
  // The sandbox reaches no real provider: the API takes only the simulated one there, so nothing else is offered.
  const sandbox = useWorkspace().membership.mode === 'test'
  return (
    <>
      {!editing && (
        <>
          <Field label={t('channels.form.phoneNumber')} hint={t('channels.form.phoneNumberHint')}>
            {(id, d) => <input id={id} required inputMode="tel" pattern="^\+[1-9][0-9]{6,14}$" aria-describedby={d} value={f.phone_number} onInput={text(set, 'phone_number')} />}
          </Field>
          <Field label={t('channels.form.provider')} hint={t('channels.form.providerHint')}>
            {(id, d) => (
              <select id={id} aria-describedby={d} value={f.provider} onChange={text(set, 'provider')}>
                <option value="simulated">{t('channels.form.simulated')}</option>
                {!sandbox && <option value="twilio">Twilio</option>}
              </select>
            )}
          </Field>
        </>
      )}
      {f.provider === 'twilio' && (
        <>
          <Field label={t('channels.form.accountSid')}>
            {(id) => <input id={id} required pattern="^AC[0-9a-fA-F]{32}$" autocomplete="off" value={f.account_sid} onInput={text(set, 'account_sid')} />}
          </Field>
          <Field label={t('channels.form.authToken')} hint={editing && tokenSet ? t('channels.form.authTokenKeep') : t('channels.form.authTokenHint')}>
            {(id, d) => (
              <input
                id={id}
                type="password"
                required={!editing}
                minLength={16}
                maxLength={128}
                autocomplete="new-password"
                aria-describedby={d}
                value={f.auth_token}
                onInput={text(set, 'auth_token')}
              />
            )}
          </Field>
          <Field label={t('channels.form.baseUrl')} hint={t('channels.form.baseUrlHint')}>
            {(id, d) => <input id={id} type="url" aria-describedby={d} value={f.base_url} onInput={text(set, 'base_url')} />}
          </Field>
          <Field label={t('channels.form.messagingServiceSid')} hint={t('channels.form.messagingServiceSidHint')}>
            {(id, d) => <input id={id} pattern="^MG[0-9a-fA-F]{32}$" autocomplete="off" aria-describedby={d} value={f.messaging_service_sid} onInput={text(set, 'messaging_service_sid')} />}
          </Field>
        </>
      )}
      {f.type === 'whatsapp' && (
        <>
          <Field label={t('channels.form.templateSid')} hint={t('channels.form.templateSidHint')}>
            {(id, d) => <input id={id} pattern="^HX[0-9a-fA-F]{32}$" autocomplete="off" aria-describedby={d} value={f.template_sid} onInput={text(set, 'template_sid')} />}
          </Field>
          {f.template_sid.trim() !== '' && (
            <Field label={t('channels.form.templateVariables')} hint={t('channels.form.templateVariablesHint')}>
              {(id, d) => <textarea id={id} rows={2} aria-describedby={d} value={f.template_variables} onInput={text(set, 'template_variables')} />}
            </Field>
          )}
        </>
      )}
    </>
  )
}

/** The chat widget: the sites that may run it, its look, language, pre-chat e-mail and identity verification. */
export function WebChatFields({ f, set }: { f: ChannelForm; set: Set }) {
  return (
    <>
      <Field label={t('channels.form.allowedOrigins')} hint={t('channels.form.allowedOriginsHint')}>
        {(id, d) => <textarea id={id} rows={3} aria-describedby={d} value={f.allowed_origins} onInput={text(set, 'allowed_origins')} />}
      </Field>
      <fieldset>
        <legend>{t('channels.form.theme')}</legend>
        <Field label={t('channels.form.color')}>{(id) => <input id={id} type="color" value={f.color} onInput={text(set, 'color')} />}</Field>
        <Field label={t('channels.form.position')}>
          {(id) => (
            <select id={id} value={f.position} onChange={text(set, 'position')}>
              <option value="bottom-right">{t('channels.form.bottomRight')}</option>
              <option value="bottom-left">{t('channels.form.bottomLeft')}</option>
            </select>
          )}
        </Field>
        <Field label={t('channels.form.greeting')} hint={t('channels.form.greetingHint')}>
          {(id, d) => <input id={id} maxLength={300} aria-describedby={d} value={f.greeting} onInput={text(set, 'greeting')} />}
        </Field>
        <Field label={t('channels.form.avatarUrl')} hint={t('channels.form.avatarUrlHint')}>
          {(id, d) => <input id={id} type="url" pattern="^https://.*" maxLength={500} aria-describedby={d} value={f.avatar_url} onInput={text(set, 'avatar_url')} />}
        </Field>
      </fieldset>
      <Field label={t('channels.form.widgetLanguage')} hint={t('channels.form.widgetLanguageHint')}>
        {(id, d) => (
          <select id={id} aria-describedby={d} value={f.locale} onChange={text(set, 'locale')}>
            <option value="en">English</option>
            <option value="de" lang="de">
              Deutsch
            </option>
          </select>
        )}
      </Field>
      <div class="field">
        <label>
          <input type="checkbox" checked={f.require_email} onChange={check(set, 'require_email')} /> {t('channels.form.requireEmail')}
        </label>
      </div>
      <div class="field">
        <label>
          <input type="checkbox" checked={f.identity_verification} aria-describedby="identity-hint" onChange={check(set, 'identity_verification')} /> {t('channels.form.identityVerification')}
        </label>
        <p class="hint" id="identity-hint">
          {t('channels.form.identityVerificationHint')}
        </p>
      </div>
      <FollowupFields f={f} set={set} />
    </>
  )
}

/** Continued by e-mail: the e-mail channel the mail comes from (none: never), the delay, the chat page linked. */
function FollowupFields({ f, set }: { f: ChannelForm; set: Set }) {
  const mail = useEmailChannels()
  // The chosen channel stays offered while the list loads (or past its first page), so opening the form keeps it.
  const options =
    f.followup_channel_id && !mail.options.some((o) => o.id === f.followup_channel_id) ? [...mail.options, { id: f.followup_channel_id, name: f.followup_channel_id, address: '' }] : mail.options
  const hint = mail.error ? mail.error.detail : !mail.loading && options.length === 0 ? t('channels.form.noEmailChannels') : t('channels.form.emailFollowupHint')
  return (
    <>
      <Field label={t('channels.form.emailFollowup')} hint={hint}>
        {(id, d) => (
          <select id={id} aria-describedby={d} value={f.followup_channel_id} onChange={text(set, 'followup_channel_id')}>
            <option value="">{t('channels.form.noFollowup')}</option>
            {options.map((o) => (
              <option value={o.id}>{o.address ? `${o.name} (${o.address})` : o.name}</option>
            ))}
          </select>
        )}
      </Field>
      {f.followup_channel_id !== '' && (
        <>
          <Field label={t('channels.form.followupMinutes')} hint={t('channels.form.followupMinutesHint')}>
            {(id, d) => <input id={id} type="number" required min={1} max={10080} step={1} aria-describedby={d} value={f.followup_minutes} onInput={text(set, 'followup_minutes')} />}
          </Field>
          <Field label={t('channels.form.chatUrl')} hint={t('channels.form.chatUrlHint')}>
            {(id, d) => <input id={id} type="url" pattern="^https?://.*" maxLength={500} aria-describedby={d} value={f.followup_chat_url} onInput={text(set, 'followup_chat_url')} />}
          </Field>
        </>
      )}
    </>
  )
}

/** E-mail: the address, the replies' name, the relay (none: the service's default) and the inbound webhooks' secrets. */
export function EmailFields({
  f,
  set,
  editing = false,
  passwordSet = false,
  webhookPasswordSet = false,
  signingKeySet = false,
  sendgridKeySet = false,
  sendgridEventsKeySet = false,
}: {
  f: ChannelForm
  set: Set
  editing?: boolean
  passwordSet?: boolean
  webhookPasswordSet?: boolean
  signingKeySet?: boolean
  sendgridKeySet?: boolean
  sendgridEventsKeySet?: boolean
}) {
  const keep = t('channels.form.secretKeep')
  const sandbox = useWorkspace().membership.mode === 'test'
  return (
    <>
      <Field label={t('channels.form.address')} hint={t('channels.form.addressHint')}>
        {(id, d) => <input id={id} type="email" required maxLength={254} aria-describedby={d} value={f.address} onInput={text(set, 'address')} />}
      </Field>
      <Field label={t('channels.form.fromName')} hint={t('channels.form.fromNameHint')}>
        {(id, d) => <input id={id} maxLength={100} aria-describedby={d} value={f.from_name} onInput={text(set, 'from_name')} />}
      </Field>
      {!editing && (
        <Field label={t('channels.form.provider')} hint={t('channels.form.emailProviderHint')}>
          {(id, d) => (
            <select id={id} aria-describedby={d} value={f.email_provider} onChange={text(set, 'email_provider')}>
              <option value="">{t('channels.form.automatic')}</option>
              {!sandbox && <option value="smtp">SMTP</option>}
              <option value="simulated">{t('channels.form.simulated')}</option>
            </select>
          )}
        </Field>
      )}
      <div class="field">
        <label>
          <input type="checkbox" checked={f.relay} onChange={check(set, 'relay')} /> {t('channels.form.ownRelay')}
        </label>
      </div>
      {f.relay && (
        <fieldset>
          <legend>{t('channels.form.relay')}</legend>
          <Field label={t('channels.form.relayHost')}>{(id) => <input id={id} required maxLength={253} value={f.relay_host} onInput={text(set, 'relay_host')} />}</Field>
          <Field label={t('channels.form.relayPort')} hint={t('channels.form.relayPortHint')}>
            {(id, d) => <input id={id} type="number" min={1} max={65535} aria-describedby={d} value={f.relay_port} onInput={text(set, 'relay_port')} />}
          </Field>
          <div class="field">
            <label>
              <input type="checkbox" checked={f.relay_secure} onChange={check(set, 'relay_secure')} /> {t('channels.form.relaySecure')}
            </label>
          </div>
          <Field label={t('channels.form.relayUser')}>{(id) => <input id={id} maxLength={254} autocomplete="off" value={f.relay_user} onInput={text(set, 'relay_user')} />}</Field>
          <Field label={t('channels.form.relayPassword')} hint={editing && passwordSet ? keep : undefined}>
            {(id, d) => <input id={id} type="password" maxLength={256} autocomplete="new-password" aria-describedby={d} value={f.relay_password} onInput={text(set, 'relay_password')} />}
          </Field>
        </fieldset>
      )}
      <Field label={t('channels.form.webhookPassword')} hint={editing && webhookPasswordSet ? keep : t('channels.form.webhookPasswordHint')}>
        {(id, d) => (
          <input id={id} type="password" minLength={16} maxLength={128} autocomplete="new-password" aria-describedby={d} value={f.webhook_password} onInput={text(set, 'webhook_password')} />
        )}
      </Field>
      <Field label={t('channels.form.mailgunSigningKey')} hint={editing && signingKeySet ? keep : t('channels.form.mailgunSigningKeyHint')}>
        {(id, d) => (
          <input id={id} type="password" minLength={16} maxLength={128} autocomplete="new-password" aria-describedby={d} value={f.mailgun_signing_key} onInput={text(set, 'mailgun_signing_key')} />
        )}
      </Field>
      <VerificationKey f={f} set={set} k="sendgrid_key" remove="sendgrid_key_remove" isSet={editing && sendgridKeySet} label="sendgridKey" />
      <VerificationKey f={f} set={set} k="sendgrid_events_key" remove="sendgrid_events_key_remove" isSet={editing && sendgridEventsKeySet} label="sendgridEventsKey" />
    </>
  )
}

/**
 * A SendGrid verification key (a public key, base64 or PEM; the API says only whether one is set): empty keeps
 * the stored one; once set, a box removes it (null).
 */
function VerificationKey(props: {
  f: ChannelForm
  set: Set
  k: 'sendgrid_key' | 'sendgrid_events_key'
  remove: 'sendgrid_key_remove' | 'sendgrid_events_key_remove'
  isSet: boolean
  label: 'sendgridKey' | 'sendgridEventsKey'
}) {
  const { f, set, k, remove, isSet, label } = props
  return (
    <>
      <Field label={t(`channels.form.${label}`)} hint={isSet ? t('channels.form.keyKeep') : t(`channels.form.${label}Hint`)}>
        {(id, d) => <textarea id={id} rows={2} minLength={40} maxLength={1000} spellcheck={false} autocomplete="off" disabled={f[remove]} aria-describedby={d} value={f[k]} onInput={text(set, k)} />}
      </Field>
      {isSet && (
        <div class="field">
          <label>
            <input type="checkbox" checked={f[remove]} onChange={check(set, remove)} /> {t(`channels.form.${label}Remove`)}
          </label>
        </div>
      )}
    </>
  )
}
