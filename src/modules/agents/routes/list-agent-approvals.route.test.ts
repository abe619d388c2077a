import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { createTestApp } from '../../../../test/helpers.js'
import { assertProblem, get, newAgent, ok, post, refundTool, startRun } from '../agents.testkit.js'

// Three runs stop for approval (amount over 100); one is rejected. The runner is not started: drainJobs() moves them.
describe('listAgentApprovals (GET /agents/{id}/approvals)', () => {
  let h: TestApp
  let agent: any
  const runs: any[] = []
  before(async () => {
    h = await createTestApp()
    agent = await newAgent(h, { tools: [refundTool('http://127.0.0.1:9')] })
    for (const [order, amount] of [
      ['ord_1', 150],
      ['ord_2', 250],
      ['ord_3', 350],
    ] as const) {
      runs.push(await startRun(h, agent.id, `Please refund order ${order}, amount ${amount}`))
      await h.drainJobs()
    }
    await ok(post(h, `/agents/${agent.id}/runs/${runs[0].id}/approve`, { decision: 'reject', comment: 'not eligible' }))
  })
  after(() => h.close())

  it('lists newest first with what each call would do and how it was decided', async () => {
    const list = await ok(get(h, `/agents/${agent.id}/approvals`))
    assert.equal(list.object, 'list')
    assert.deepEqual(
      list.data.map((a: any) => a.run_id),
      [runs[2].id, runs[1].id, runs[0].id],
    )
    assert.deepEqual(
      list.data.map((a: any) => a.arguments.amount),
      [350, 250, 150],
    )
    assert.deepEqual(
      list.data.map((a: any) => a.status),
      ['pending', 'pending', 'rejected'],
    )
    const rejected = list.data[2]
    assert.match(rejected.id, /^apr_/)
    assert.equal(rejected.object, 'agent_approval')
    assert.equal(rejected.agent_id, agent.id)
    assert.equal(rejected.tool, 'refund_order')
    assert.equal(rejected.comment, 'not eligible')
    assert.match(rejected.decided_by, /^key_/)
    assert.equal(list.data[0].decided_at, null)
  })

  it('filters by status and pages', async () => {
    assert.deepEqual(
      (await ok(get(h, `/agents/${agent.id}/approvals?status=pending`))).data.map((a: any) => a.run_id),
      [runs[2].id, runs[1].id],
    )
    assert.deepEqual(
      (await ok(get(h, `/agents/${agent.id}/approvals?status=rejected`))).data.map((a: any) => a.run_id),
      [runs[0].id],
    )
    assert.deepEqual((await ok(get(h, `/agents/${agent.id}/approvals?status=approved`))).data, [])
    const first = await ok(get(h, `/agents/${agent.id}/approvals?limit=2`))
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/agents/${agent.id}/approvals?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((a: any) => a.run_id),
      [runs[0].id],
    )
  })

  it("another workspace's agent is 404; bad queries are 422; the read scope is required", async () => {
    assertProblem(await get(h, `/agents/${agent.id}/approvals`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/agents/agt_00000000000000000000000000/approvals'), 404, 'resource_not_found')
    assertProblem(await get(h, `/agents/${agent.id}/approvals?status=maybe`), 422, 'validation_failed')
    assertProblem(await get(h, `/agents/${agent.id}/approvals?cursor=garbage`), 422, 'invalid_cursor')
    assertProblem(await get(h, `/agents/${agent.id}/approvals`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
