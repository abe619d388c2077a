import type { components } from '../../api/schema.js'
import { Badge, type Tone } from '../../ui/components.js'
import { statusLabel, t } from '../../i18n/index.js'

export { statusLabel }

export type Call = components['schemas']['VoiceCall']
export type CallStatus = components['schemas']['VoiceCallStatus']
export type Transcript = components['schemas']['VoiceTranscript']
export type Segment = components['schemas']['VoiceTranscriptSegment']
export type VoiceNumber = components['schemas']['VoiceNumber']

export const CALL_STATUSES: CallStatus[] = ['queued', 'ringing', 'in_progress', 'completed', 'busy', 'no_answer', 'failed', 'canceled']
const FINAL = new Set<CallStatus>(['completed', 'busy', 'no_answer', 'failed', 'canceled'])

const TONE: Record<CallStatus, Tone> = {
  queued: 'info',
  ringing: 'info',
  in_progress: 'info',
  completed: 'good',
  busy: 'warn',
  no_answer: 'warn',
  failed: 'bad',
  canceled: 'neutral',
}

export function CallStatusBadge({ status }: { status: CallStatus }) {
  return <Badge tone={TONE[status]}>{statusLabel(status)}</Badge>
}

/** Not ended yet: queued, ringing or in progress (it can be hung up). */
export const callLive = (c: Call) => !FINAL.has(c.status)

/** Still changing: not ended, or its recording or transcript not settled yet. */
export const callSettling = (c: Call) =>
  !FINAL.has(c.status) || c.recording.status === 'pending' || c.recording.status === 'processing' || c.transcript.status === 'pending' || c.transcript.status === 'processing'

/** m:ss (or h:mm:ss) of a number of seconds. */
export function clock(seconds: number): string {
  const s = Math.max(0, Math.floor(seconds))
  const h = Math.floor(s / 3600)
  const m = Math.floor((s % 3600) / 60)
  const ss = String(s % 60).padStart(2, '0')
  return h ? `${h}:${String(m).padStart(2, '0')}:${ss}` : `${m}:${ss}`
}

export const duration = (c: Call) => (c.duration_seconds == null ? '—' : clock(c.duration_seconds))

/** What answers a number: the greeting alone, or a bot or agent linked to its page. */
export function AnsweredBy({ n }: { n: VoiceNumber }) {
  const { type, id } = n.answer
  if (type === 'greeting' || !id) return <>{t('voice.numberDetail.greeting')}</>
  return (
    <>
      {type === 'bot' ? t('voice.answererFields.bot') : t('voice.answererFields.agent')} <a href={`/dashboard/${type === 'bot' ? 'bots' : 'agents'}/${id}`}>{id}</a>
    </>
  )
}
