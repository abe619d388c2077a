import type { RefObject } from 'preact'
import { ok } from '../../api/client.js'
import { Async, Empty } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { clock, type Call, type Segment } from './voice.shared.js'
import { t } from '../../i18n/index.js'

const SPEAKER: Record<Segment['speaker'], string> = { bot: 'Bot', caller: 'Caller', member: 'Member' }

/**
 * The timed transcript: each segment with its start and speaker. A segment's time seeks the recording
 * there (and plays); the segment being played is highlighted.
 */
export function TranscriptView({ call, audioRef, currentMs, hasAudio }: { call: Call; audioRef: RefObject<HTMLAudioElement | null>; currentMs: number; hasAudio: boolean }) {
  const status = call.transcript.status
  const transcript = useResource((api) => ok(api.client.GET('/voice/calls/{id}/transcript', { params: { path: { id: call.id } } })), [call.id, status])
  const seek = (ms: number) => {
    const audio = audioRef.current
    if (!audio) return
    audio.currentTime = (ms + 1) / 1000
    void audio.play().catch(() => undefined)
  }
  return (
    <Async loading={transcript.loading} error={transcript.error} data={transcript.data} onRetry={transcript.reload}>
      {(tr) => {
        if (tr.status === 'pending' || tr.status === 'processing')
          return (
            <p class="muted">
              {t('voice.transcript.theTranscriptIsReadyWhen')}
              {tr.status === 'processing' ? t('voice.transcript.beingTranscribedNow') : ''}.
            </p>
          )
        if (tr.status === 'unavailable' || tr.status === 'failed')
          return (
            <p class="notice notice-warn">
              {t('voice.transcript.noTranscript')}
              {tr.reason ? `: ${tr.reason}` : '.'}
            </p>
          )
        if (tr.segments.length === 0) return <Empty title={t('voice.transcript.nobodySpokeOnThisCall')} />
        const playing = hasAudio ? tr.segments.findIndex((s) => currentMs >= s.start_ms && currentMs < s.end_ms) : -1
        return (
          <ol class="transcript" aria-label={t('voice.callDetail.transcript')}>
            {tr.segments.map((s, i) => (
              <li class={`segment speaker-${s.speaker}${i === playing ? ' playing' : ''}`} aria-current={i === playing ? 'true' : undefined} data-testid="transcript-segment">
                {hasAudio ? (
                  <button
                    type="button"
                    class="seek"
                    onClick={() => seek(s.start_ms)}
                    aria-label={t('voice.transcript.playFromValueValue2', { value: clock(s.start_ms / 1000), value2: SPEAKER[s.speaker] })}
                  >
                    {clock(s.start_ms / 1000)}
                  </button>
                ) : (
                  <span class="seek-time">{clock(s.start_ms / 1000)}</span>
                )}
                <span class="speaker">{SPEAKER[s.speaker]}</span>
                <span class="text">{s.text}</span>
              </li>
            ))}
          </ol>
        )
      }}
    </Async>
  )
}
