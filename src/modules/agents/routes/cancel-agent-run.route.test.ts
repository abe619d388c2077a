import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { agentsApp, assertProblem, events, get, newAgent, ok, post, refundTool, settled, startRun, startToolServer } from '../agents.testkit.js'

describe('cancelAgentRun', () => {
  let h: TestApp
  let tools: Awaited<ReturnType<typeof startToolServer>>
  let aborted = 0
  before(async () => {
    h = await agentsApp()
    // The refund endpoint never answers: the call stays in flight until it is aborted.
    tools = await startToolServer((r) => (r.url === '/slow' ? { hang: true } : { status: 200, body: '{"ok":true}' }))
  })
  after(async () => {
    await h.close()
    await tools.close()
  })

  it('aborts the call in flight, ends the run cancelled, and answers the same on a second cancel', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url, { url: `${tools.url}/slow`, timeout_ms: 30_000, approval: { mode: 'never' } })] })
    const queued = await startRun(h, agent.id, 'Refund order ord_1, amount 10')
    const inFlight = await settled(h, agent.id, queued.id, (r) => r.steps.some((s: any) => s.type === 'tool_call'))
    while (tools.requests.length === 0) await new Promise((r) => setTimeout(r, 20))
    const t0 = Date.now()
    const cancelled = await ok(post(h, `/agents/${agent.id}/runs/${inFlight.id}/cancel`))
    assert.equal(cancelled.status, 'cancelled')
    assert.equal(cancelled.error.code, 'cancelled')
    // The worker notices and aborts the HTTP call: the call step ends failed, nothing else is recorded.
    const end = await settled(h, agent.id, inFlight.id, (r) => r.steps.find((s: any) => s.type === 'tool_call')?.status === 'failed', 5000)
    assert.ok(Date.now() - t0 < 5000)
    assert.deepEqual(
      end.steps.map((s: any) => s.type),
      ['reasoning', 'tool_call'],
    )
    assert.equal(end.postmortem.reason, 'cancelled')
    const again = await ok(post(h, `/agents/${agent.id}/runs/${inFlight.id}/cancel`))
    assert.equal(again.status, 'cancelled')
    assert.equal((await events(h, 'agent_run.cancelled')).filter((e) => e.id === inFlight.id).length, 1)
    aborted++
  })

  it('closes a pending approval, and refuses to cancel a run that already ended (409)', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const waiting = await settled(h, agent.id, (await startRun(h, agent.id, 'Refund order ord_2, amount 400')).id, (r) => r.status === 'requires_approval')
    const cancelled = await ok(post(h, `/agents/${agent.id}/runs/${waiting.id}/cancel`))
    assert.equal(cancelled.status, 'cancelled')
    assert.equal(cancelled.pending_approval, null)
    assert.equal((await ok(get(h, `/agents/${agent.id}/approvals?status=cancelled`))).data[0].id, waiting.pending_approval.id)
    assertProblem(await post(h, `/agents/${agent.id}/runs/${waiting.id}/approve`, { decision: 'approve' }), 409, 'approval_not_pending')

    const quick = await settled(h, agent.id, (await startRun(h, agent.id, 'Refund order ord_3, amount 5')).id)
    assert.equal(quick.status, 'succeeded')
    assertProblem(await post(h, `/agents/${agent.id}/runs/${quick.id}/cancel`), 409, 'invalid_run_transition')
    assertProblem(await post(h, `/agents/${agent.id}/runs/run_00000000000000000000000000/cancel`), 404, 'resource_not_found')
    assert.equal(aborted, 1)
  })
})
