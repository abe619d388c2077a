import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function number(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/voice/numbers', payload: { country: 'US', greeting: 'Hello from the fixture.' } })
  return JSON.parse(r.body).id
}
/** A call answered and in progress (test apps answer simulated calls at once; its script keeps it going ~20 s). */
async function call(c: FixtureClient, record = false): Promise<string> {
  const script = ['Hello, who is this?', 'I see, and what is this call about?', 'Could you call me back tomorrow morning?', 'Thanks, goodbye.']
  const r = await c.request({ method: 'POST', url: '/v2/voice/calls', payload: { from_number_id: await number(c), to: '+15005550006', record, script } })
  await c.drainJobs()
  return JSON.parse(r.body).id
}

export const FIXTURES: Record<string, Fixture> = {
  provisionVoiceNumber: async () => ({ params: {}, body: { country: 'US' } }),
  getVoiceNumber: async (c) => ({ id: await number(c) }),
  updateVoiceNumber: async (c) => ({ params: { id: await number(c) }, body: { friendly_name: 'Renamed line' } }),
  releaseVoiceNumber: async (c) => ({ id: await number(c) }),
  createVoiceCall: async (c) => ({ params: {}, body: { from_number_id: await number(c), to: '+15005550006' } }),
  getVoiceCall: async (c) => ({ id: await call(c) }),
  transferVoiceCall: async (c) => ({ params: { id: await call(c) }, body: { to: { phone_number: '+14155550188' } } }),
  hangupVoiceCall: async (c) => ({ params: { id: await call(c) } }),
  getVoiceRecording: async (c) => ({ id: await call(c, true) }),
  getVoiceTranscript: async (c) => ({ id: await call(c) }),
  createVoiceToken: async () => ({ params: {}, body: { identity: 'agent-ada' } }),
}
