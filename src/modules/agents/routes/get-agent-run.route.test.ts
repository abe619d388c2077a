import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { createTestApp } from '../../../../test/helpers.js'
import { assertProblem, get, newAgent, ok, refundTool, startRun } from '../agents.testkit.js'

// The job runner is not started: drainJobs() runs the run to where it stops, with no polling.
describe('getAgentRun (GET /agents/{id}/runs/{run_id})', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('answers a queued run, then the ended run with its ordered steps and usage', async () => {
    const agent = await newAgent(h)
    const created = await startRun(h, agent.id, 'Hello, what can you do?', { metadata: { ticket: 'T-1' } })
    const queued = await ok(get(h, `/agents/${agent.id}/runs/${created.id}`))
    assert.match(queued.id, /^run_/)
    assert.equal(queued.agent_id, agent.id)
    assert.equal(queued.status, 'queued')
    assert.deepEqual(queued.steps, [])
    assert.deepEqual(queued.metadata, { ticket: 'T-1' })
    await h.drainJobs()
    const done = await ok(get(h, `/agents/${agent.id}/runs/${created.id}`))
    assert.equal(done.status, 'succeeded', JSON.stringify(done.steps))
    assert.ok(done.steps.length > 0)
    assert.equal(done.steps[done.steps.length - 1].type, 'message')
    assert.equal(done.postmortem, null)
    assert.equal(done.pending_approval, null)
  })

  it('shows the pending approval of a run that waits for a person', async () => {
    const agent = await newAgent(h, { tools: [refundTool('http://127.0.0.1:9')] })
    const created = await startRun(h, agent.id, 'Please refund order ord_42, amount 500')
    await h.drainJobs()
    const run = await ok(get(h, `/agents/${agent.id}/runs/${created.id}`))
    assert.equal(run.status, 'requires_approval')
    assert.equal(run.pending_approval.tool, 'refund_order')
    assert.deepEqual(run.pending_approval.arguments, { order_id: 'ord_42', amount: 500 })
  })

  it("another agent's run and another workspace are 404; bad ids are 4xx; the read scope is required", async () => {
    const agent = await newAgent(h)
    const other = await newAgent(h, { name: 'Other' })
    const run = await startRun(h, agent.id, 'Hello')
    assertProblem(await get(h, `/agents/${other.id}/runs/${run.id}`), 404, 'resource_not_found')
    assertProblem(await get(h, `/agents/${agent.id}/runs/${run.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, `/agents/${agent.id}/runs/run_00000000000000000000000000`), 404, 'resource_not_found')
    assertProblem(await get(h, `/agents/${agent.id}/runs/${'r'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/agents/${agent.id}/runs/${run.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
