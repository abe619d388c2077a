import type { CallStatus } from './carrier.types.js'

// Twilio's CallStatus values (REST answers and status callbacks) as ours. `initiated` is Twilio's
// "dialled, not ringing yet": still queued for us.
const STATUSES: Record<string, CallStatus> = {
  queued: 'queued',
  initiated: 'queued',
  ringing: 'ringing',
  'in-progress': 'in_progress',
  completed: 'completed',
  busy: 'busy',
  'no-answer': 'no_answer',
  failed: 'failed',
  canceled: 'canceled',
}

/** Our status for one of Twilio's; null for a value Twilio may add later (the caller ignores the event). */
export function twilioStatus(s: string): CallStatus | null {
  return Object.hasOwn(STATUSES, s) ? STATUSES[s] : null
}
