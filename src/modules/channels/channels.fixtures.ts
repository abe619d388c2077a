import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

let n = 0
async function channel(c: FixtureClient): Promise<string> {
  // Each fixture its own number: a channel per (type, number) in a workspace.
  const phone = `+1415555${String(1000 + (n++ % 9000)).padStart(4, '0')}`
  const r = await c.request({ method: 'POST', url: '/v2/channels', payload: { type: 'sms', name: 'Fixture SMS', phone_number: phone } })
  return JSON.parse(r.body).id
}

export const FIXTURES: Record<string, Fixture> = {
  createChannel: async () => ({ params: {}, body: { type: 'sms', name: 'Support SMS', phone_number: `+1415556${String(1000 + (n++ % 9000)).padStart(4, '0')}` } }),
  getChannel: async (c) => ({ id: await channel(c) }),
  updateChannel: async (c) => ({ params: { id: await channel(c) }, body: { name: 'Renamed' } }),
  deleteChannel: async (c) => ({ id: await channel(c) }),
  simulateChannelMessage: async (c) => ({ params: { id: await channel(c) }, body: { from: '+14155550199', body: 'Hello, is my order shipped?' } }),
}
