import { useRoute } from 'preact-iso'
import { useRef, useState } from 'preact/hooks'
import { ok, type Api } from '../../api/client.js'
import { Async, Notice, Page, Time } from '../../ui/components.js'
import { usePoll, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { HangupCallDialog, TransferCallDialog } from './call-actions.js'
import { RecordingPlayer } from './recording-player.js'
import { TranscriptView } from './transcript.js'
import { CallStatusBadge, callLive, callSettling, duration, statusLabel, type Call } from './voice.shared.js'
import { t } from '../../i18n/index.js'

/** /dashboard/voice/calls/:id: the call (hang up, transfer while live), its recording (native player) and its timed transcript. */
export default function CallDetail() {
  const { id } = useRoute().params
  const { api } = useWorkspace()
  const load = (a: Api) => ok(a.client.GET('/voice/calls/{id}', { params: { path: { id } } }))
  const call = useResource(load, [id])
  const audioRef = useRef<HTMLAudioElement>(null)
  const [currentMs, setCurrentMs] = useState(0)
  const [dialog, setDialog] = useState<'hangup' | 'transfer' | null>(null)
  const [done, setDone] = useState<string | null>(null)
  const changed = (next: Call, what: string) => {
    call.set(next)
    setDialog(null)
    setDone(what)
  }
  // A call still in progress (or its media being made) is looked at again 2 s after each answer.
  const settling = call.data ? callSettling(call.data) : false
  usePoll(settling, async () => call.set(await load(api)), 2000)
  return (
    <Page title={t('voice.callDetail.call')}>
      <p>
        <a href="/dashboard/voice/calls">{t('voice.callDetail.allCalls')}</a>
      </p>
      <Async loading={call.loading} error={call.error} data={call.data} onRetry={call.reload}>
        {(c) => (
          <>
            <div class="split">
              <section class="panel" aria-labelledby="call-facts">
                <h2 id="call-facts">{t('voice.callDetail.details')}</h2>
                <dl class="facts">
                  <dt>{t('voice.callDetail.status')}</dt>
                  <dd>
                    <CallStatusBadge status={c.status} />
                    {c.end_reason && <span class="muted"> ({statusLabel(c.end_reason)})</span>}
                  </dd>
                  <dt>{t('voice.callDetail.direction')}</dt>
                  <dd>{c.direction === 'inbound' ? t('voice.callDetail.inbound') : t('voice.callDetail.outbound')}</dd>
                  <dt>{t('voice.callDetail.from')}</dt>
                  <dd class="phone">{c.from}</dd>
                  <dt>{t('voice.callDetail.to')}</dt>
                  <dd class="phone">{c.to}</dd>
                  <dt>{t('voice.callDetail.duration')}</dt>
                  <dd>{duration(c)}</dd>
                  <dt>{t('voice.callDetail.placed')}</dt>
                  <dd>
                    <Time iso={c.created_at} />
                  </dd>
                  <dt>{t('voice.callDetail.answered')}</dt>
                  <dd>
                    <Time iso={c.answered_at} />
                  </dd>
                  <dt>{t('voice.callDetail.ended')}</dt>
                  <dd>
                    <Time iso={c.ended_at} />
                  </dd>
                  <dt>{t('voice.answererFields.answeredBy')}</dt>
                  <dd>
                    {c.answer.type}
                    {c.answer.id && <code> {c.answer.id}</code>}
                  </dd>
                  <dt>{t('voice.callDetail.conversation')}</dt>
                  <dd>
                    <a href={`/dashboard/inbox/${c.conversation_id}`}>
                      <code>{c.conversation_id}</code>
                    </a>
                  </dd>
                  <dt>{t('voice.callDetail.callId')}</dt>
                  <dd>
                    <code>{c.id}</code>
                  </dd>
                </dl>
                {callLive(c) && (
                  <div class="form-actions">
                    {c.status === 'in_progress' && (
                      <button type="button" onClick={() => (setDone(null), setDialog('transfer'))}>
                        {t('voice.callActions.transfer')}
                      </button>
                    )}
                    <button type="button" class="danger" onClick={() => (setDone(null), setDialog('hangup'))}>
                      {t('voice.callActions.hangUp')}
                    </button>
                  </div>
                )}
                {c.transfers.length > 0 && (
                  <>
                    <h3>{t('voice.callDetail.transfers')}</h3>
                    <ul>
                      {c.transfers.map((tr) => (
                        <li>
                          <Time iso={tr.at} /> {t('voice.callDetail.modeTransfer', { mode: tr.mode })}
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </section>
              <div>
                {done && <Notice>{done}</Notice>}
                <section class="panel" aria-labelledby="call-recording">
                  <h2 id="call-recording">{t('voice.callDetail.recording')}</h2>
                  <RecordingPlayer call={c} audioRef={audioRef} onTime={setCurrentMs} />
                </section>
                <section class="panel" aria-labelledby="call-transcript">
                  <h2 id="call-transcript">{t('voice.callDetail.transcript')}</h2>
                  <TranscriptView call={c} audioRef={audioRef} currentMs={currentMs} hasAudio={c.recording.status === 'ready'} />
                </section>
              </div>
            </div>
            <HangupCallDialog
              call={c}
              open={dialog === 'hangup'}
              onClose={() => setDialog(null)}
              onEnded={(next) => changed(next, next.status === 'canceled' ? t('voice.callDetail.callCanceled') : t('voice.callDetail.callEnded'))}
            />
            {/* Transfer is offered while the call is in progress; the dialog closes by itself if the call ends meanwhile. */}
            <TransferCallDialog
              call={c}
              open={dialog === 'transfer' && c.status === 'in_progress'}
              onClose={() => setDialog(null)}
              onTransferred={(next) => changed(next, t('voice.callDetail.callTransferred'))}
            />
          </>
        )}
      </Async>
    </Page>
  )
}
