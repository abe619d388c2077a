// Shared steps for the voice route tests (not a test file itself): the real app on a clock the tests
// move, so the simulated carrier's worker steps (seconds apart) run when the test says.
import { ManualClock } from '../../kernel/clock.js'
import { createTestApp, get, ok, post, type TestApp } from '../../../test/helpers.js'

export { assertProblem, events, get, json, ok, patch, post } from '../../../test/helpers.js'

export interface VoiceApp extends TestApp {
  clock: ManualClock
}

export async function voiceApp(env: Record<string, string> = {}): Promise<VoiceApp> {
  const clock = new ManualClock(Date.parse('2026-11-28T09:00:00Z'))
  const h = await createTestApp({ env: { VOICE_SIM_SETUP_SCALE: '1', ...env }, clock })
  return Object.assign(h, { clock })
}

export const newNumber = (h: TestApp, body: Record<string, unknown> = {}, key?: string) => ok(post(h, '/voice/numbers', { country: 'US', ...body }, { key }), 201)

export const FINAL = new Set(['completed', 'busy', 'no_answer', 'failed', 'canceled'])

/** Moves the clock a second at a time, running due jobs, until `until(call)` holds (default: the call ended and its media settled). */
export async function advance(h: VoiceApp, id: string, until: (call: any) => boolean = settled, maxSeconds = 600): Promise<any> {
  for (let s = 0; s <= maxSeconds; s++) {
    await h.drainJobs()
    const call = await ok(get(h, `/voice/calls/${id}`))
    if (until(call)) return call
    h.clock.advance(1000)
  }
  throw new Error(`call ${id} did not get there in ${maxSeconds} simulated seconds`)
}

export const settled = (c: any) => FINAL.has(c.status) && c.recording.status !== 'processing' && c.transcript.status !== 'processing' && c.transcript.status !== 'pending'

/** A published bot answering from a small help center (documents processed by draining the jobs). */
export async function voiceBot(h: VoiceApp): Promise<any> {
  const kb = await ok(post(h, '/knowledge/bases', { name: 'Delivery help' }), 201)
  await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Delivery times', text: 'Parcels are delivered between 9:00 and 18:00. A parcel out for delivery arrives the same day.' }), 202)
  await ok(post(h, `/knowledge/bases/${kb.id}/documents`, { title: 'Returns', text: 'You can return a parcel within 30 days; the courier collects it from your door.' }), 202)
  await h.drainJobs()
  const bot = await ok(post(h, '/bots', { name: 'Delivery bot', knowledge_base_ids: [kb.id] }), 201)
  await ok(post(h, `/bots/${bot.id}/publish`))
  return bot
}
