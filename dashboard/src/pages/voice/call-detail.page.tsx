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
    <Page title="Call">
      <p>
        <a href="/dashboard/voice/calls">← All calls</a>
      </p>
      <Async loading={call.loading} error={call.error} data={call.data} onRetry={call.reload}>
        {(c) => (
          <>
            <div class="split">
              <section class="panel" aria-labelledby="call-facts">
                <h2 id="call-facts">Details</h2>
                <dl class="facts">
                  <dt>Status</dt>
                  <dd>
                    <CallStatusBadge status={c.status} />
                    {c.end_reason && <span class="muted"> ({statusLabel(c.end_reason)})</span>}
                  </dd>
                  <dt>Direction</dt>
                  <dd>{c.direction === 'inbound' ? 'Inbound' : 'Outbound'}</dd>
                  <dt>From</dt>
                  <dd class="phone">{c.from}</dd>
                  <dt>To</dt>
                  <dd class="phone">{c.to}</dd>
                  <dt>Duration</dt>
                  <dd>{duration(c)}</dd>
                  <dt>Placed</dt>
                  <dd>
                    <Time iso={c.created_at} />
                  </dd>
                  <dt>Answered</dt>
                  <dd>
                    <Time iso={c.answered_at} />
                  </dd>
                  <dt>Ended</dt>
                  <dd>
                    <Time iso={c.ended_at} />
                  </dd>
                  <dt>Answered by</dt>
                  <dd>
                    {c.answer.type}
                    {c.answer.id && <code> {c.answer.id}</code>}
                  </dd>
                  <dt>Conversation</dt>
                  <dd>
                    <a href={`/dashboard/inbox/${c.conversation_id}`}>
                      <code>{c.conversation_id}</code>
                    </a>
                  </dd>
                  <dt>Call id</dt>
                  <dd>
                    <code>{c.id}</code>
                  </dd>
                </dl>
                {callLive(c) && (
                  <div class="form-actions">
                    {c.status === 'in_progress' && (
                      <button type="button" onClick={() => (setDone(null), setDialog('transfer'))}>
                        Transfer
                      </button>
                    )}
                    <button type="button" class="danger" onClick={() => (setDone(null), setDialog('hangup'))}>
                      Hang up
                    </button>
                  </div>
                )}
                {c.transfers.length > 0 && (
                  <>
                    <h3>Transfers</h3>
                    <ul>
                      {c.transfers.map((t) => (
                        <li>
                          <Time iso={t.at} /> {t.mode} transfer
                        </li>
                      ))}
                    </ul>
                  </>
                )}
              </section>
              <div>
                {done && <Notice>{done}</Notice>}
                <section class="panel" aria-labelledby="call-recording">
                  <h2 id="call-recording">Recording</h2>
                  <RecordingPlayer call={c} audioRef={audioRef} onTime={setCurrentMs} />
                </section>
                <section class="panel" aria-labelledby="call-transcript">
                  <h2 id="call-transcript">Transcript</h2>
                  <TranscriptView call={c} audioRef={audioRef} currentMs={currentMs} hasAudio={c.recording.status === 'ready'} />
                </section>
              </div>
            </div>
            <HangupCallDialog call={c} open={dialog === 'hangup'} onClose={() => setDialog(null)} onEnded={(next) => changed(next, `Call ${next.status === 'canceled' ? 'canceled' : 'ended'}.`)} />
            {/* Transfer is offered while the call is in progress; the dialog closes by itself if the call ends meanwhile. */}
            <TransferCallDialog call={c} open={dialog === 'transfer' && c.status === 'in_progress'} onClose={() => setDialog(null)} onTransferred={(next) => changed(next, 'Call transferred.')} />
          </>
        )}
      </Async>
    </Page>
  )
}
