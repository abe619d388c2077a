import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { json } from '../../../../test/helpers.js'
import { agentsApp, assertProblem, events, get, newAgent, ok, post, refundTool, settled, startRun, startToolServer } from '../agents.testkit.js'

const waiting = (r: any) => r.status === 'requires_approval'

describe('approveAgentRun', () => {
  let h: TestApp
  let tools: Awaited<ReturnType<typeof startToolServer>>
  before(async () => {
    h = await agentsApp()
    tools = await startToolServer(() => ({ status: 200, body: JSON.stringify({ status: 'refunded' }) }))
  })
  after(async () => {
    await h.close()
    await tools.close()
  })

  it('stops before a call its policy holds, and of 20 concurrent approvals exactly one wins: the tool is called once', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const queued = await startRun(h, agent.id, 'Please refund order ord_900, amount 250')
    const run = await settled(h, agent.id, queued.id, waiting)
    assert.equal(tools.requests.length, 0, 'nothing sent before the approval')
    const pending = run.pending_approval
    assert.match(pending.id, /^apr_/)
    assert.equal(pending.tool, 'refund_order')
    assert.deepEqual(pending.arguments, { order_id: 'ord_900', amount: 250 })
    assert.match(pending.reason, /amount 250/)
    assert.equal(pending.status, 'pending')
    assert.ok(Date.parse(pending.expires_at) > Date.now() + 86_000_000)
    assert.deepEqual(
      run.steps.map((s: any) => [s.type, s.status]),
      [
        ['reasoning', 'completed'],
        ['approval', 'started'],
      ],
    )
    assert.equal((await ok(get(h, `/agents/${agent.id}/approvals?status=pending`))).data[0].id, pending.id)

    const answers = await Promise.all(Array.from({ length: 20 }, () => post(h, `/agents/${agent.id}/runs/${run.id}/approve`, { decision: 'approve', comment: 'ok' })))
    const codes = answers.map((r) => r.statusCode).sort()
    assert.deepEqual(codes, [200, ...Array(19).fill(409)])
    for (const r of answers.filter((x) => x.statusCode === 409)) assertProblem(r, 409, 'approval_not_pending')
    const done = await settled(h, agent.id, run.id)
    assert.equal(done.status, 'succeeded', JSON.stringify(done.steps))
    assert.equal(tools.requests.filter((r) => r.url === '/refunds').length, 1, 'the tool was called once')
    const approval = (await ok(get(h, `/agents/${agent.id}/approvals`))).data.find((a: any) => a.id === pending.id)
    assert.equal(approval.status, 'approved')
    assert.equal(approval.comment, 'ok')
    assert.match(approval.decided_by, /^key_/)
    assert.equal((await ok(get(h, `/agents/${agent.id}/approvals?status=pending`))).data.length, 0)
    assert.deepEqual(
      done.steps.map((s: any) => s.type),
      ['reasoning', 'approval', 'tool_call', 'tool_result', 'message'],
    )
    assert.equal(done.steps[2].approval_id, pending.id)
    assert.equal((await events(h, 'agent_approval.resolved')).filter((e) => e.id === pending.id).length, 1)
    assert.equal((await events(h, 'agent_run.requires_approval')).filter((e) => e.id === run.id).length, 1)
    // A decision on a run that is not waiting: 409.
    assertProblem(await post(h, `/agents/${agent.id}/runs/${run.id}/approve`, { decision: 'approve' }), 409, 'approval_not_pending')
  })

  it('sends edited arguments (checked against the tool schema), and a rejection makes no call', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const before = tools.requests.length
    const a = await settled(h, agent.id, (await startRun(h, agent.id, 'Refund order ord_901, amount 300')).id, waiting)
    const bad = await post(h, `/agents/${agent.id}/runs/${a.id}/approve`, { decision: 'approve', arguments: { order_id: 'nope', amount: 120 } })
    assertProblem(bad, 422, 'validation_failed')
    assert.equal(json(bad).errors[0].pointer, '/body/arguments/order_id')
    await ok(post(h, `/agents/${agent.id}/runs/${a.id}/approve`, { decision: 'approve', arguments: { order_id: 'ord_901', amount: 120 } }))
    const doneA = await settled(h, agent.id, a.id)
    assert.equal(doneA.status, 'succeeded')
    assert.deepEqual(JSON.parse(tools.requests[tools.requests.length - 1].body), { order_id: 'ord_901', amount: 120 })
    assert.equal(tools.requests.length, before + 1)

    const b = await settled(h, agent.id, (await startRun(h, agent.id, 'Refund order ord_902, amount 500')).id, waiting)
    assertProblem(await post(h, `/agents/${agent.id}/runs/${b.id}/approve`, { decision: 'reject', arguments: { order_id: 'ord_902', amount: 1 } }), 422, 'validation_failed')
    await ok(post(h, `/agents/${agent.id}/runs/${b.id}/approve`, { decision: 'reject', comment: 'too much' }))
    const doneB = await settled(h, agent.id, b.id)
    assert.equal(tools.requests.length, before + 1, 'a rejected call is never sent')
    const result = doneB.steps.find((s: any) => s.type === 'tool_result')
    assert.equal(result.result.error.code, 'approval_rejected')
    assert.match(result.result.error.detail, /too much/)
    assert.equal((await ok(get(h, `/agents/${agent.id}/approvals?status=rejected`))).data.length, 1)
  })

  it("is 404 on another agent's run or another workspace, and an expired approval ends the run expired", async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const other = await newAgent(h, { name: 'Other' })
    const run = await settled(h, agent.id, (await startRun(h, agent.id, 'Refund order ord_903, amount 700')).id, waiting)
    assertProblem(await post(h, `/agents/${other.id}/runs/${run.id}/approve`, { decision: 'approve' }), 404, 'resource_not_found')
    assertProblem(await post(h, `/agents/${agent.id}/runs/${run.id}/approve`, { decision: 'approve' }, { key: h.b.live }), 404, 'resource_not_found')
    assertProblem(await post(h, `/agents/${agent.id}/runs/${run.id}/approve`, { decision: 'maybe' }), 422)

    // Time passes: the approval's expiry job finds it undecided.
    const { kernel, services } = h.app
    const past = new Date(Date.now() - 1000).toISOString()
    await kernel.db.updateTable('agent_approvals').set({ expires_at: past }).where('id', '=', run.pending_approval.id).execute()
    assertProblem(await post(h, `/agents/${agent.id}/runs/${run.id}/approve`, { decision: 'approve' }), 409, 'approval_not_pending')
    await services.agents.jobs.expire.run({ workspace_id: h.a.workspaceId, mode: 'live', approval_id: run.pending_approval.id }, { jobId: 'job_test', attempt: 1 })
    const expired = await ok(get(h, `/agents/${agent.id}/runs/${run.id}`))
    assert.equal(expired.status, 'expired')
    assert.equal(expired.error.code, 'approval_expired')
    assert.equal(expired.postmortem.reason, 'approval_expired')
    assert.equal(expired.postmortem.failed_step, 2)
    assert.equal((await ok(get(h, `/agents/${agent.id}/approvals?status=expired`))).data.length, 1)
    assert.ok((await events(h, 'agent_run.expired')).some((e) => e.id === run.id))
  })
})
