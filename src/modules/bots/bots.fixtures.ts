import type { Fixture, FixtureClient } from '../../kernel/module.js'

// Loaded only by the shared route-table tests (security, cursors, aliases), found by test/fixtures.ts.

async function bot(c: FixtureClient): Promise<string> {
  const r = await c.request({ method: 'POST', url: '/v2/bots', payload: { name: 'Fixture bot' } })
  return JSON.parse(r.body).id
}

async function version(c: FixtureClient): Promise<{ bot: string; version: string }> {
  const id = await bot(c)
  const first = await c.request({ method: 'POST', url: `/v2/bots/${id}/versions`, payload: { note: 'one' } })
  await c.request({ method: 'POST', url: `/v2/bots/${id}/versions`, payload: { note: 'two' } })
  await c.request({ method: 'POST', url: `/v2/bots/${id}/publish`, payload: {} })
  return { bot: id, version: JSON.parse(first.body).id }
}

export const FIXTURES: Record<string, Fixture> = {
  createBot: async () => ({ params: {}, body: { name: 'Fixture bot' } }),
  getBot: async (c) => ({ id: await bot(c) }),
  updateBot: async (c) => ({ params: { id: await bot(c) }, body: { name: 'Renamed' } }),
  deleteBot: async (c) => ({ id: await bot(c) }),
  publishBot: async (c) => ({ params: { id: await bot(c) }, body: {} }),
  listBotVersions: async (c) => ({ id: await bot(c) }),
  createBotVersion: async (c) => ({ params: { id: await bot(c) }, body: { note: 'Fixture' } }),
  rollbackBotVersion: async (c) => {
    const v = await version(c)
    return { params: { id: v.bot, run_id: v.version }, body: {} }
  },
  cloneBot: async (c) => ({ params: { id: await bot(c) }, body: {} }),
  listBotTools: async (c) => ({ id: await bot(c) }),
  attachBotTool: async (c) => ({ params: { id: await bot(c) }, body: { type: 'builtin', name: 'handoff_to_human' } }),
  getBotGuardrails: async (c) => ({ id: await bot(c) }),
  updateBotGuardrails: async (c) => ({ params: { id: await bot(c) }, body: { max_reply_length: 500 } }),
  sendBotMessage: async (c) => {
    const id = await bot(c)
    await c.request({ method: 'POST', url: `/v2/bots/${id}/publish`, payload: {} })
    return { params: { id }, body: { content: 'Hello there' } }
  },
  streamBotMessage: async (c) => {
    const id = await bot(c)
    await c.request({ method: 'POST', url: `/v2/bots/${id}/publish`, payload: {} })
    return { params: { id }, body: { content: 'Hello there' } }
  },
  getBotTestConversation: async (c) => {
    const id = await bot(c)
    await c.request({ method: 'POST', url: `/v2/bots/${id}/publish`, payload: {} })
    const r = await c.request({ method: 'POST', url: `/v2/bots/${id}/messages`, payload: { content: 'Hello there', test: true } })
    return { id, conversation_id: JSON.parse(r.body).conversation_id }
  },
}
