import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Notice, Page, Time } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { useIsAdmin } from '../../ui/sub-nav.js'
import { t } from '../../i18n/index.js'
import { DeleteChannelDialog, EditChannelDialog, RotateSecretDialog } from './channel-edit.js'
import { EmailPanel, HoursPanel, TwilioPanel, WebChatPanel } from './channel-panels.js'
import { BotLink, ChannelAddress, CHANNELS, isPhone, ProviderBadge, typeLabel } from './channels.shared.js'

/** /dashboard/channels/:id: a channel's facts, its type's settings (Twilio webhooks, the widget's snippet, e-mail inbound URLs), business hours; edit and delete for admins. */
export default function ChannelDetail() {
  const { id } = useRoute().params as { id: string }
  const { route } = useLocation()
  const ch = useResource((a) => ok(a.client.GET('/channels/{id}', { params: { path: { id } } })), [id])
  // Changing a channel is for owners and admins (the API refuses members); members see it read-only.
  const admin = useIsAdmin()
  const [dialog, setDialog] = useState<'edit' | 'delete' | 'rotate' | null>(null)
  const [saved, setSaved] = useState(false)
  const open = (d: typeof dialog) => (setSaved(false), setDialog(d))
  return (
    <Page title={ch.data?.name ?? t('channels.detail.channel')}>
      <p>
        <a href={CHANNELS}>{t('channels.detail.allChannels')}</a>
      </p>
      <Async loading={ch.loading} error={ch.error} data={ch.data} onRetry={ch.reload}>
        {(c) => (
          <div class="channel-page">
            {!admin && <p class="hint">{t('channels.list.readOnly')}</p>}
            <section class="panel" aria-labelledby="channel-facts">
              <h2 id="channel-facts">{typeLabel(c.type)}</h2>
              <dl class="facts">
                <dt>{c.type === 'email' ? t('channels.form.address') : c.type === 'web_chat' ? t('channels.detail.publicKey') : t('channels.form.phoneNumber')}</dt>
                <dd>
                  <ChannelAddress c={c} wrap />
                </dd>
                <dt>{t('channels.form.provider')}</dt>
                <dd>
                  <ProviderBadge c={c} />
                </dd>
                <dt>{t('channels.form.bot')}</dt>
                <dd>
                  <BotLink id={c.bot_id} />
                </dd>
                <dt>{t('channels.detail.channelId')}</dt>
                <dd>
                  <code>{c.id}</code>
                </dd>
                <dt>{t('channels.list.created')}</dt>
                <dd>
                  <Time iso={c.created_at} />
                </dd>
                <dt>{t('channels.detail.updated')}</dt>
                <dd>
                  <Time iso={c.updated_at} />
                </dd>
              </dl>
              {admin && (
                <div class="form-actions">
                  <button type="button" onClick={() => open('edit')}>
                    {t('channels.detail.edit')}
                  </button>
                  <button type="button" class="danger" onClick={() => open('delete')}>
                    {t('channels.edit.deleteChannel')}
                  </button>
                </div>
              )}
            </section>
            {saved && <Notice>{t('channels.detail.saved')}</Notice>}
            {isPhone(c.type) && <TwilioPanel c={c} />}
            {c.type === 'web_chat' && <WebChatPanel c={c} admin={admin} onRotate={() => open('rotate')} />}
            {c.type === 'email' && <EmailPanel c={c} />}
            <HoursPanel c={c} admin={admin} onSaved={ch.set} />
            {admin && (
              <>
                <EditChannelDialog channel={c} open={dialog === 'edit'} onClose={() => setDialog(null)} onSaved={(next) => (ch.set(next), setDialog(null), setSaved(true))} />
                <DeleteChannelDialog channel={c} open={dialog === 'delete'} onClose={() => setDialog(null)} onDeleted={() => route(`${CHANNELS}?deleted=${encodeURIComponent(c.name)}`)} />
                <RotateSecretDialog channel={c} open={dialog === 'rotate'} onClose={() => setDialog(null)} onRotated={ch.set} />
              </>
            )}
          </div>
        )}
      </Async>
    </Page>
  )
}
