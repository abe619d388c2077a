import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Dialog, Field, FormActions } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Call } from './voice.shared.js'
import { t } from '../../i18n/index.js'

type TransferBody = components['requestBodies']['TransferVoiceCallBody']['content']['application/json']

/** Asks first: hanging up ends the call for both sides at once (canceled before the answer, completed after). */
export function HangupCallDialog({ call, open, onClose, onEnded }: { call: Call; open: boolean; onClose: () => void; onEnded: (c: Call) => void }) {
  const { api } = useWorkspace()
  const hangup = useAction(async () => onEnded(await ok(api.client.POST('/voice/calls/{id}/hangup', { params: { path: { id: call.id } } }))))
  const close = () => {
    hangup.clear()
    onClose()
  }
  const answered = call.status === 'in_progress'
  return (
    <Dialog open={open} title={t('voice.callActions.hangUpThisCall')} onClose={close}>
      <p>
        {t('voice.callActions.theCall')} {call.direction === 'inbound' ? 'from' : 'to'} <span class="phone">{call.direction === 'inbound' ? call.from : call.to}</span>{' '}
        {answered ? t('voice.callActions.endsNowForBothSides') : t('voice.callActions.stopsRingingAndEndsAs')}
      </p>
      <FormActions action={hangup} label={t('voice.callActions.hangUp')} busyLabel={t('voice.callActions.hangingUp')} tone="danger" onConfirm={() => void hangup.run()} onCancel={close} />
    </Dialog>
  )
}

/** Hands a call in progress to a phone number or a member (their browser or app, by a voice token), cold or warm. */
export function TransferCallDialog({ call, open, onClose, onTransferred }: { call: Call; open: boolean; onClose: () => void; onTransferred: (c: Call) => void }) {
  return (
    <Dialog open={open} title={t('voice.callActions.transferTheCall')} onClose={onClose}>
      {/* Mounted while open only: a fresh form each time, and the members read when it is opened. */}
      <TransferForm call={call} onCancel={onClose} onTransferred={onTransferred} />
    </Dialog>
  )
}

function TransferForm({ call, onCancel, onTransferred }: { call: Call; onCancel: () => void; onTransferred: (c: Call) => void }) {
  const { api, membership } = useWorkspace()
  const [target, setTarget] = useState<'phone_number' | 'member_id'>('phone_number')
  const [phone, setPhone] = useState('')
  const [member, setMember] = useState('')
  const [mode, setMode] = useState<'cold' | 'warm'>('cold')
  const [announcement, setAnnouncement] = useState('')
  // Active members only: the API refuses a transfer to anyone else (422).
  const members = useResource(
    async (a) => (await ok(a.client.GET('/workspaces/{id}/members', { params: { path: { id: membership.workspace_id }, query: { limit: 100 } } }))).data.filter((m) => m.status === 'active'),
    [membership.workspace_id],
  )
  const transfer = useAction(async () => {
    const body: TransferBody = { to: target === 'phone_number' ? { phone_number: phone.trim() } : { member_id: member }, mode }
    if (announcement.trim()) body.announcement = announcement.trim()
    onTransferred(await ok(api.client.POST('/voice/calls/{id}/transfer', { params: { path: { id: call.id } }, body })))
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void transfer.run()
      }}
    >
      <fieldset>
        <legend>{t('voice.callActions.transferTo')}</legend>
        <label>
          <input type="radio" name="transfer-target" checked={target === 'phone_number'} onChange={() => setTarget('phone_number')} /> {t('voice.callActions.aPhoneNumber')}
        </label>
        <br />
        <label>
          <input type="radio" name="transfer-target" checked={target === 'member_id'} onChange={() => setTarget('member_id')} /> {t('voice.callActions.aMember')}
        </label>
      </fieldset>
      {target === 'phone_number' ? (
        <Field label={t('voice.callActions.phoneNumber')} hint={t('voice.callActions.e164WithTheCountry')}>
          {(id, hint) => <input id={id} type="tel" required pattern="\+[1-9][0-9]{6,14}" aria-describedby={hint} value={phone} onInput={(e) => setPhone(e.currentTarget.value)} />}
        </Field>
      ) : (
        <Field label={t('voice.callActions.member')} hint={t('voice.callActions.rungInTheirBrowserOr')}>
          {(id, hint) => (
            <select id={id} required aria-describedby={hint} value={member} onChange={(e) => setMember(e.currentTarget.value)}>
              <option value="">{members.loading ? t('voice.callActions.loadingMembers') : t('voice.callActions.chooseAMember')}</option>
              {(members.data ?? []).map((m) => (
                <option value={m.id}>{m.name ? `${m.name} (${m.email})` : m.email}</option>
              ))}
            </select>
          )}
        </Field>
      )}
      {members.error && target === 'member_id' && <p class="hint">{t('voice.callActions.theMembersCouldNotBe', { detail: members.error.detail })}</p>}
      <Field label={t('voice.callActions.mode')} hint={t('voice.callActions.coldTheCallerHearsThe')}>
        {(id, hint) => (
          <select id={id} aria-describedby={hint} value={mode} onChange={(e) => setMode(e.currentTarget.value as 'cold' | 'warm')}>
            <option value="cold">{t('voice.callActions.cold')}</option>
            <option value="warm">{t('voice.callActions.warm')}</option>
          </select>
        )}
      </Field>
      <Field label={t('voice.callActions.announcement')} hint={t('voice.callActions.optionalByDefaultPleaseHold')}>
        {(id, hint) => <input id={id} maxLength={500} aria-describedby={hint} value={announcement} onInput={(e) => setAnnouncement(e.currentTarget.value)} />}
      </Field>
      <FormActions action={transfer} label={t('voice.callActions.transfer')} busyLabel={t('voice.callActions.transferring')} onCancel={onCancel} />
    </form>
  )
}
