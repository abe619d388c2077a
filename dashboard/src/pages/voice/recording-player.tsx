import type { RefObject } from 'preact'
import { useEffect, useState } from 'preact/hooks'
import type { ApiProblem } from '../../api/problem.js'
import { Loading, ProblemView } from '../../ui/components.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Call } from './voice.shared.js'
import { statusLabel, t } from '../../i18n/index.js'

/**
 * The call's recording in a native <audio controls>: the WAV fetched with the member's token (an <audio src>
 * cannot send Authorization), played from an object URL that is revoked when the page leaves.
 */
export function RecordingPlayer({ call, audioRef, onTime }: { call: Call; audioRef: RefObject<HTMLAudioElement | null>; onTime: (ms: number) => void }) {
  const { api } = useWorkspace()
  const status = call.recording.status
  const [src, setSrc] = useState<string>()
  const [problem, setProblem] = useState<ApiProblem>()
  const [attempt, setAttempt] = useState(0)
  useEffect(() => {
    if (status !== 'ready') return
    let url: string | undefined
    let gone = false
    setProblem(undefined)
    api
      .fetch(`/voice/calls/${encodeURIComponent(call.id)}/recording?format=wav`, { headers: { accept: 'audio/wav' } })
      .then((res) => res.blob())
      .then(
        (blob) => {
          if (gone) return
          url = URL.createObjectURL(blob)
          setSrc(url)
        },
        (err: ApiProblem) => !gone && setProblem(err),
      )
    return () => {
      gone = true
      if (url) URL.revokeObjectURL(url)
      setSrc(undefined)
    }
  }, [api, call.id, status, attempt])

  if (status === 'none') return <p class="muted">{call.record ? t('voice.recordingPlayer.noRecordingTheCallWas') : t('voice.recordingPlayer.thisCallWasNotRecorded')}</p>
  if (status === 'pending' || status === 'processing') return <Loading label={t('voice.recordingPlayer.theRecordingIsBeingPrepared')} />
  if (status === 'unavailable' || status === 'failed') return <RecordingUnavailable callId={call.id} status={status} />
  if (problem) return <ProblemView problem={problem} onRetry={() => setAttempt((a) => a + 1)} />
  if (!src) return <Loading label={t('voice.recordingPlayer.loadingTheRecording')} />
  return (
    <audio
      ref={audioRef}
      class="recording"
      controls
      preload="metadata"
      src={src}
      aria-label={t('voice.recordingPlayer.callRecording')}
      onTimeUpdate={(e) => onTime((e.currentTarget as HTMLAudioElement).currentTime * 1000)}
      onSeeked={(e) => onTime((e.currentTarget as HTMLAudioElement).currentTime * 1000)}
    />
  )
}

/** Why there is no audio (the reason comes with the recording's metadata). */
function RecordingUnavailable({ callId, status }: { callId: string; status: 'unavailable' | 'failed' }) {
  const { api } = useWorkspace()
  const [reason, setReason] = useState<string | null>(null)
  useEffect(() => {
    api.client.GET('/voice/calls/{id}/recording', { params: { path: { id: callId } } }).then(
      (r) => setReason((r.data as { reason?: string | null } | undefined)?.reason ?? null),
      () => setReason(null),
    )
  }, [api, callId])
  return (
    <p class="notice notice-warn">
      {t('voice.recordingPlayer.theRecordingIsStatus', { status: statusLabel(status) })}
      {reason ? `: ${reason}` : '.'}
    </p>
  )
}
