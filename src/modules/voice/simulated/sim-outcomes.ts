import type { CallStatus } from '../carriers/carrier.types.js'

// Test destinations with fixed outcomes, like Twilio's magic numbers (docs/voice.md "Sandbox"). Every
// other destination answers. On the simulated carrier nobody is dialled in either case.

export type SimOutcome = 'answers' | 'busy' | 'no_answer' | 'fails'

export const TEST_DESTINATIONS: Record<string, SimOutcome> = {
  '+15005550006': 'answers',
  '+15005550007': 'busy',
  '+15005550008': 'no_answer',
  '+15005550009': 'fails',
}

export const outcomeOf = (to: string): SimOutcome => TEST_DESTINATIONS[to] ?? 'answers'

/** Realistic timings (ms): dialling, two rings before an answer, a ring timeout. */
export const SIM_TIMING = {
  dialMs: 1000,
  answerAfterRingMs: 4000,
  busyAfterRingMs: 1500,
  ringTimeoutMs: 30_000,
  failAfterMs: 500,
} as const

/** The next step of a call that has not been answered, and when (ms after the current step). */
export function nextStep(status: CallStatus, outcome: SimOutcome): { to: CallStatus; afterMs: number; reason: string | null } | null {
  if (status === 'queued')
    return outcome === 'fails' ? { to: 'failed', afterMs: SIM_TIMING.failAfterMs, reason: 'unroutable_destination' } : { to: 'ringing', afterMs: SIM_TIMING.dialMs, reason: null }
  if (status !== 'ringing') return null
  if (outcome === 'busy') return { to: 'busy', afterMs: SIM_TIMING.busyAfterRingMs, reason: 'busy' }
  if (outcome === 'no_answer') return { to: 'no_answer', afterMs: SIM_TIMING.ringTimeoutMs, reason: 'no_answer' }
  return { to: 'in_progress', afterMs: SIM_TIMING.answerAfterRingMs, reason: null }
}
