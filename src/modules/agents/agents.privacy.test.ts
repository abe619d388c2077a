import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { DataSubject } from '../../kernel/module.js'
import type { TestApp } from '../../../test/helpers.js'
import { agentsApp, get, newAgent, ok, post, refundTool, settled, startRun, startToolServer } from './agents.testkit.js'

const ADA: DataSubject = { email: 'ada@example.com', phone: '+14155550101', external_id: null }
const NADA: DataSubject = { email: 'nada@example.com', phone: '+141555501019', external_id: null }

describe('agents privacy', () => {
  let h: TestApp
  let tools: Awaited<ReturnType<typeof startToolServer>>
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  const privacy = () => h.app.kernel.modules.find((m) => m.name === 'agents')!.privacy!
  const collect = (s: DataSubject) => privacy().collect(h.app.kernel, h.app.services, tenant(), s)

  before(async () => {
    h = await agentsApp()
    tools = await startToolServer(() => ({ status: 200, body: JSON.stringify({ refund_id: 're_1', status: 'refunded' }) }))
  })
  after(async () => {
    await h.close()
    await tools.close()
  })

  it("finds runs in the subject's conversations or naming them in the input, with steps and approvals; erase deletes exactly those", async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const run = async (input: unknown, extra: Record<string, unknown> = {}, until?: (r: any) => boolean) => settled(h, agent.id, (await startRun(h, agent.id, input, extra)).id, until)
    const conv = await ok(post(h, '/inbox/conversations', { contact: { email: ADA.email }, message: { content: 'My order broke' } }), 201)
    const byText = await run('Customer ADA@example.com asks where order ord_1 is.')
    const byConversation = await run('Summarise the conversation.', { conversation_id: conv.id })
    const byJson = await run({ customer: { phone: ADA.phone }, question: 'status of ord_2?' })
    const waiting = await run(`Please refund order ord_123, amount 400, for ${ADA.email}`, {}, (r) => r.status === 'requires_approval')
    const nada = await run('Customer nada@example.com (+141555501019) asks where order ord_3 is.')

    const found = await collect(ADA)
    const runs = found.records.agent_runs as any[]
    assert.deepEqual(
      runs.map((r) => r.id),
      [byText.id, byConversation.id, byJson.id, waiting.id],
    )
    assert.deepEqual(runs[0], await ok(get(h, `/agents/${agent.id}/runs/${byText.id}`)), 'shaped as the API shows it')
    assert.equal(found.records.agent_approvals.length, 1)
    assert.equal((found.records.agent_approvals[0] as any).run_id, waiting.id)
    assert.equal(runs[3].pending_approval.run_id, waiting.id)
    assert.deepEqual(
      (await collect(NADA)).records.agent_runs.map((r: any) => r.id),
      [nada.id],
    )

    const rows = runs.length + runs.reduce((n, r) => n + r.steps.length, 0) + 1
    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: rows, anonymised: 0 })
    assert.deepEqual(await collect(ADA), { records: { agent_runs: [], agent_approvals: [] }, files: [], ids: [] })
    assert.equal((await get(h, `/agents/${agent.id}/runs/${waiting.id}`)).statusCode, 404)
    assert.ok((await ok(get(h, `/agents/${agent.id}/approvals`))).data.every((a: any) => a.run_id === nada.id))
    await ok(get(h, `/agents/${agent.id}/runs/${nada.id}`))
    assert.deepEqual(
      (await collect(NADA)).records.agent_runs.map((r: any) => r.id),
      [nada.id],
    )
    assert.deepEqual(await privacy().erase(h.app.kernel, h.app.services, tenant(), ADA), { deleted: 0, anonymised: 0 })
  })

  it('a conversation the messages retention deletes takes its runs with it, whole; a run of a recent conversation and one of none stay', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const run = async (input: unknown, extra: Record<string, unknown> = {}, until?: (r: any) => boolean) => settled(h, agent.id, (await startRun(h, agent.id, input, extra)).id, until)
    const old = await ok(post(h, '/inbox/conversations', { contact: { email: 'old@example.com' }, message: { content: 'Where is my order?' } }), 201)
    const inOld = await run('Summarise the conversation.', { conversation_id: old.id })
    const waitingInOld = await run('Please refund order ord_9, amount 400.', { conversation_id: old.id }, (r) => r.status === 'requires_approval')
    const cutoff = new Date(Date.now() + 1000).toISOString()
    await new Promise((r) => setTimeout(r, 1100))
    const recent = await ok(post(h, '/inbox/conversations', { contact: { email: 'recent@example.com' }, message: { content: 'Hello' } }), 201)
    const inRecent = await run('Summarise the conversation.', { conversation_id: recent.id })
    const alone = await run('Where is order ord_4?')
    const rowsOf = (id: string) => h.app.kernel.db.selectFrom('agent_run_steps').select('id').where('run_id', '=', id).execute()
    assert.ok((await rowsOf(inOld.id)).length > 0)

    const messages = h.app.kernel.modules.find((m) => m.name === 'inbox')!.retention!.find((c) => c.name === 'messages')!
    assert.ok((await messages.purge(h.app.kernel, tenant(), cutoff, 500)) >= 1)
    assert.equal((await get(h, `/inbox/conversations/${old.id}`)).statusCode, 404)
    for (const gone of [inOld, waitingInOld]) assert.equal((await get(h, `/agents/${agent.id}/runs/${gone.id}`)).statusCode, 404)
    assert.deepEqual(await rowsOf(inOld.id), [], 'its steps went with it')
    assert.ok(
      (await ok(get(h, `/agents/${agent.id}/approvals`))).data.every((a: any) => a.run_id !== waitingInOld.id),
      'and its approval',
    )
    for (const kept of [inRecent, alone]) await ok(get(h, `/agents/${agent.id}/runs/${kept.id}`))
  })
})
