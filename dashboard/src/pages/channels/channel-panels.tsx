import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { FormActions, Notice } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { t } from '../../i18n/index.js'
import { useEmailChannels, type Channel } from './channels.shared.js'
import { HoursEditor, hoursValid } from './hours-editor.js'
import { hoursFormOf, hoursOfForm, type HoursForm } from './hours-form.js'
import { CopyUrl, Snippet } from './snippet.js'

const yesNo = (b: boolean) => (b ? t('channels.detail.yes') : t('channels.detail.no'))

/** SMS and WhatsApp: the Twilio account (the token never shown), its Messaging Service, WhatsApp's template, and the two webhook URLs to give Twilio. */
export function TwilioPanel({ c }: { c: Channel }) {
  const template = c.whatsapp?.template
  return (
    <section class="panel" aria-labelledby="channel-twilio">
      <h2 id="channel-twilio">{t('channels.detail.twilio')}</h2>
      <p class="hint">{c.provider === 'twilio' ? t('channels.detail.twilioHint') : t('channels.detail.simulatedHint')}</p>
      <dl class="facts">
        {c.provider === 'twilio' && (
          <>
            <dt>{t('channels.form.accountSid')}</dt>
            <dd>
              <code>{c.credentials.account_sid}</code>
            </dd>
            <dt>{t('channels.form.authToken')}</dt>
            <dd>{c.credentials.auth_token_set ? t('channels.detail.stored') : t('channels.detail.notSet')}</dd>
            <dt>{t('channels.form.baseUrl')}</dt>
            <dd>{c.credentials.base_url ?? 'https://api.twilio.com'}</dd>
            <dt>{t('channels.form.messagingServiceSid')}</dt>
            <dd>{c.credentials.messaging_service_sid ? <code>{c.credentials.messaging_service_sid}</code> : <span class="muted">{t('channels.detail.none')}</span>}</dd>
          </>
        )}
        {c.type === 'whatsapp' && (
          <>
            <dt>{t('channels.form.templateSid')}</dt>
            <dd>
              {template ? <code>{template.content_sid}</code> : <span class="muted">{t('channels.detail.none')}</span>}
              {template && Object.keys(template.variables ?? {}).length > 0 && (
                <span class="muted">
                  {' · '}
                  {Object.entries(template.variables ?? {})
                    .map(([k, v]) => `${k}=${v}`)
                    .join(', ')}
                </span>
              )}
            </dd>
          </>
        )}
        {c.webhooks && <CopyUrl label={t('channels.detail.messagesUrl')} url={c.webhooks.messages_url} />}
        {c.webhooks && <CopyUrl label={t('channels.detail.statusUrl')} url={c.webhooks.status_url} />}
      </dl>
    </section>
  )
}

/** The chat widget's settings and its snippet. */
export function WebChatPanel({ c, admin, onRotate }: { c: Channel; admin: boolean; onRotate: () => void }) {
  const w = c.web_chat
  if (!w) return null
  return (
    <section class="panel" aria-labelledby="channel-widget">
      <h2 id="channel-widget">{t('channels.detail.widget')}</h2>
      <dl class="facts">
        <dt>{t('channels.detail.publicKey')}</dt>
        <dd>
          <code>{w.public_key}</code>
        </dd>
        <dt>{t('channels.form.allowedOrigins')}</dt>
        <dd>{w.allowed_origins.length ? w.allowed_origins.join(', ') : <span class="muted">{t('channels.detail.none')}</span>}</dd>
        <dt>{t('channels.form.color')}</dt>
        <dd>
          <span class="swatch" style={{ background: w.theme.color }} aria-hidden="true" /> <code>{w.theme.color}</code>
        </dd>
        <dt>{t('channels.form.position')}</dt>
        <dd>{w.theme.position === 'bottom-left' ? t('channels.form.bottomLeft') : t('channels.form.bottomRight')}</dd>
        <dt>{t('channels.form.greeting')}</dt>
        <dd>{w.theme.greeting ?? <span class="muted">{t('channels.detail.widgetOwnGreeting')}</span>}</dd>
        <dt>{t('channels.form.widgetLanguage')}</dt>
        <dd>{w.locale === 'de' ? 'Deutsch' : 'English'}</dd>
        <dt>{t('channels.form.requireEmail')}</dt>
        <dd>{yesNo(w.require_email)}</dd>
        <dt>{t('channels.form.identityVerification')}</dt>
        <dd>
          {yesNo(w.identity_verification)}
          {w.identity_secret_set && <span class="muted"> · {t('channels.detail.secretStored')}</span>}
        </dd>
        <Followup c={c} />
      </dl>
      {admin && (w.identity_verification || w.identity_secret_set) && (
        <div class="form-actions">
          <button type="button" onClick={onRotate}>
            {t('channels.edit.rotateIdentitySecret')}
          </button>
        </div>
      )}
      <Snippet c={c} />
    </section>
  )
}

/** Continued by e-mail: from which e-mail channel, after how long, and the chat page the mail links to. */
function Followup({ c }: { c: Channel }) {
  const u = c.web_chat?.email_followup
  const mail = useEmailChannels()
  const from = u && mail.options.find((o) => o.id === u.email_channel_id)
  return (
    <>
      <dt>{t('channels.form.emailFollowup')}</dt>
      <dd>
        {u ? (
          <>
            <a href={`/dashboard/channels/${u.email_channel_id}`}>{from ? `${from.name} (${from.address})` : u.email_channel_id}</a>
            {' · '}
            {t('channels.detail.afterMinutes', { minutes: u.after_minutes })}
          </>
        ) : (
          t('channels.detail.no')
        )}
      </dd>
      {u && (
        <>
          <dt>{t('channels.detail.chatPage')}</dt>
          <dd>{u.chat_url ?? <span class="muted">{t('channels.detail.firstAllowedSite')}</span>}</dd>
        </>
      )}
    </>
  )
}

/** E-mail: the address, the relay, and the inbound webhook URLs for Postmark, SendGrid and Mailgun. */
export function EmailPanel({ c }: { c: Channel }) {
  const e = c.email
  if (!e) return null
  return (
    <section class="panel" aria-labelledby="channel-email">
      <h2 id="channel-email">{t('channels.detail.email')}</h2>
      <dl class="facts">
        <dt>{t('channels.form.address')}</dt>
        <dd>{e.address}</dd>
        <dt>{t('channels.form.fromName')}</dt>
        <dd>{e.from_name ?? '—'}</dd>
        <dt>{t('channels.detail.replyAddress')}</dt>
        <dd>
          <code>{e.reply_address_example}</code>
        </dd>
        <dt>{t('channels.form.relay')}</dt>
        <dd>{e.relay ? `${e.relay.host}:${e.relay.port}${e.relay.secure ? ' (TLS)' : ''}${e.relay.user ? ` · ${e.relay.user}` : ''}` : t('channels.detail.defaultRelay')}</dd>
        <dt>{t('channels.detail.smtpListener')}</dt>
        <dd>{yesNo(e.inbound.smtp)}</dd>
        <CopyUrl label="Postmark" url={e.inbound.postmark_url} />
        <CopyUrl label="SendGrid" url={e.inbound.sendgrid_url} />
        <CopyUrl label="Mailgun" url={e.inbound.mailgun_url} />
        <CopyUrl label={t('channels.detail.sendgridEventsUrl')} url={e.inbound.sendgrid_events_url} />
        <dt>{t('channels.form.webhookPassword')}</dt>
        <dd>{e.inbound.webhook_password_set ? t('channels.detail.stored') : t('channels.detail.notSet')}</dd>
        <dt>{t('channels.form.mailgunSigningKey')}</dt>
        <dd>{e.inbound.mailgun_signing_key_set ? t('channels.detail.stored') : t('channels.detail.notSet')}</dd>
        <dt>{t('channels.form.sendgridKey')}</dt>
        <dd>{e.inbound.sendgrid_signed ? t('channels.detail.sendgridSigned') : t('channels.detail.sendgridBasicAuth')}</dd>
        <dt>{t('channels.form.sendgridEventsKey')}</dt>
        <dd>{e.inbound.sendgrid_events ? t('channels.detail.sendgridEventsTaken') : t('channels.detail.sendgridEventsNotTaken')}</dd>
      </dl>
    </section>
  )
}

/** The business hours editor with its own Save (a PATCH of `business_hours` alone); read-only below admin. */
export function HoursPanel({ c, admin, onSaved }: { c: Channel; admin: boolean; onSaved: (c: Channel) => void }) {
  const { api } = useWorkspace()
  const [f, setF] = useState<HoursForm>(() => hoursFormOf(c.business_hours))
  const [saved, setSaved] = useState(false)
  useEffect(() => setF(hoursFormOf(c.business_hours)), [c.id])
  const save = useAction(async () => {
    const next = await ok(api.client.PATCH('/channels/{id}', { params: { path: { id: c.id } }, body: { business_hours: hoursOfForm(f) } }))
    onSaved(next)
    setF(hoursFormOf(next.business_hours))
    setSaved(true)
  })
  return (
    <section class="panel" aria-labelledby="channel-hours">
      <h2 id="channel-hours">{t('channels.hours.businessHours')}</h2>
      <p class="hint">{t('channels.hours.explains')}</p>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          setSaved(false)
          void save.run()
        }}
      >
        <HoursEditor value={f} onChange={(x) => (setSaved(false), setF(x))} readOnly={!admin} hideLegend />
        {admin && <FormActions action={save} label={t('channels.hours.saveHours')} busyLabel={t('channels.edit.saving')} disabled={!hoursValid(f)} />}
      </form>
      {saved && <Notice>{t('channels.hours.saved')}</Notice>}
    </section>
  )
}
