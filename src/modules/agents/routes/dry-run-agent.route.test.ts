import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { agentsApp, assertProblem, newAgent, ok, patch, post, refundTool, startToolServer } from '../agents.testkit.js'

const TABLES = ['agent_runs', 'agent_run_steps', 'agent_approvals', 'jobs', 'events', 'knowledge_gaps', 'inbox_messages'] as const

describe('dryRunAgent', () => {
  let h: TestApp
  let tools: Awaited<ReturnType<typeof startToolServer>>
  before(async () => {
    h = await agentsApp()
    tools = await startToolServer(() => ({ status: 200, body: '{"status":"refunded"}' }))
  })
  after(async () => {
    await h.close()
    await tools.close()
  })

  async function counts(): Promise<Record<string, number>> {
    const out: Record<string, number> = {}
    for (const t of TABLES)
      out[t] = Number(
        (
          await h.app.kernel.db
            .selectFrom(t)
            .select((eb) => eb.fn.countAll().as('n'))
            .executeTakeFirstOrThrow()
        ).n,
      )
    return out
  }

  it('shows every step, the exact request each call would send and the approvals, with zero requests at the tool server and nothing stored', async () => {
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Policies' }), 201)
    const agent = await newAgent(h, { tools: [refundTool(tools.url)], knowledge_base_ids: [kb.id] })
    const before = await counts()
    const dry = await ok(post(h, `/agents/${agent.id}/dry-run`, { input: 'Please refund order ord_42, amount 250' }))
    assert.equal(dry.object, 'agent_dry_run')
    assert.equal(dry.status, 'succeeded', JSON.stringify(dry))
    assert.deepEqual(
      dry.steps.map((s: any) => s.type),
      ['reasoning', 'approval', 'tool_call', 'tool_result', 'message'],
    )
    assert.deepEqual(dry.approvals, [{ tool: 'refund_order', arguments: { order_id: 'ord_42', amount: 250 }, reason: dry.approvals[0].reason, step: 2 }])
    assert.match(dry.approvals[0].reason, /amount 250/)
    const call = dry.steps[2]
    assert.equal(call.request.method, 'POST')
    assert.equal(call.request.url, `${tools.url}/refunds`)
    assert.deepEqual(JSON.parse(call.request.body), { order_id: 'ord_42', amount: 250 })
    assert.equal(call.request.headers.authorization, '[hidden]')
    assert.equal(call.request.headers['idempotency-key'], call.idempotency_key)
    assert.match(call.request.headers['svc-status-signature'], /^t=\d+,v1=/)
    assert.equal(dry.steps[3].result.output.simulated, true)
    assert.deepEqual(dry.usage, { steps: 5, tool_calls: 1, tokens: null })
    assert.ok(dry.output.text.length > 0)
    // A question the base cannot answer would record a gap in a real run; the dry-run writes nothing.
    await ok(post(h, `/agents/${agent.id}/dry-run`, { input: 'Why is the sky purple on Tuesdays?' }))
    assert.equal(tools.requests.length, 0, 'no request left the service')
    assert.deepEqual(await counts(), before, 'nothing was persisted')
  })

  it('checks input and state like a run: 422 against the input schema, 409 disabled, 404 unknown or foreign', async () => {
    const agent = await newAgent(h, { input_schema: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] } })
    assertProblem(await post(h, `/agents/${agent.id}/dry-run`, { input: { order: 1 } }), 422, 'invalid_agent_input')
    assertProblem(await post(h, `/agents/${agent.id}/dry-run`, {}), 422, 'validation_failed')
    assertProblem(await post(h, `/agents/${agent.id}/dry-run`, { input: { order_id: 'ord_1' } }, { key: h.b.live }), 404, 'resource_not_found')
    await ok(patch(h, `/agents/${agent.id}`, { status: 'disabled' }))
    assertProblem(await post(h, `/agents/${agent.id}/dry-run`, { input: { order_id: 'ord_1' } }), 409, 'agent_disabled')
  })

  it('honours the step limit: the last engine step is offered no tool, so it answers', async () => {
    const agent = await newAgent(h, { max_steps: 1, tools: [refundTool(tools.url, { approval: { mode: 'never' } })] })
    const one = await ok(post(h, `/agents/${agent.id}/dry-run`, { input: 'Refund order ord_7, amount 3' }))
    assert.deepEqual(
      one.steps.map((s: any) => s.type),
      ['message'],
    )
    await ok(patch(h, `/agents/${agent.id}`, { max_steps: 2 }))
    const two = await ok(post(h, `/agents/${agent.id}/dry-run`, { input: 'Refund order ord_7, amount 3' }))
    assert.deepEqual(
      two.steps.map((s: any) => s.type),
      ['reasoning', 'tool_call', 'tool_result', 'message'],
    )
    assert.equal(tools.requests.length, 0)
  })
})
