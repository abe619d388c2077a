import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { verifySignature } from '../../../kernel/crypto/signature.js'
import type { TestApp } from '../../../../test/helpers.js'
import { agentsApp, assertProblem, events, get, newAgent, ok, post, refundTool, settled, startRun, startToolServer } from '../agents.testkit.js'

describe('createAgentRun', () => {
  let h: TestApp
  let tools: Awaited<ReturnType<typeof startToolServer>>
  before(async () => {
    h = await agentsApp()
    tools = await startToolServer(() => ({ status: 200, body: JSON.stringify({ refund_id: 're_1', status: 'refunded' }) }))
  })
  after(async () => {
    await h.close()
    await tools.close()
  })

  it('runs the agent as a durable job: the tool call is recorded, signed, sent with its Idempotency-Key, and the output composed', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const queued = await startRun(h, agent.id, 'Please refund order ord_123, amount 40', { metadata: { ticket: 'T-1' } })
    assert.equal(queued.status, 'queued')
    assert.match(queued.id, /^run_/)
    const run = await settled(h, agent.id, queued.id)
    assert.equal(run.status, 'succeeded', JSON.stringify(run))
    assert.deepEqual(
      run.steps.map((s: any) => s.type),
      ['reasoning', 'tool_call', 'tool_result', 'message'],
    )
    const call = run.steps[1]
    assert.deepEqual(call.arguments, { order_id: 'ord_123', amount: 40 })
    assert.equal(call.status, 'completed')
    assert.match(call.idempotency_key, /^tcall_/)
    assert.equal(run.steps[2].result.output.refund_id, 're_1')
    assert.match(run.output.text, /refund/i)
    assert.deepEqual(run.usage, { steps: 4, tool_calls: 1, tokens: null })
    assert.deepEqual(run.metadata, { ticket: 'T-1' })
    assert.equal(run.postmortem, null)
    // The tool server saw one request: the run's key, the tool's own header, a valid signature.
    assert.equal(tools.requests.length, 1)
    const seen = tools.requests[0]
    assert.equal(seen.headers['idempotency-key'], call.idempotency_key)
    assert.equal(seen.headers.authorization, 'Bearer shop-secret')
    assert.deepEqual(JSON.parse(seen.body), { order_id: 'ord_123', amount: 40 })
    assert.ok(verifySignature(seen.headers['svc-status-signature'] as string, seen.body, [agent.signing_secret]), 'signed with the agent secret')
    const types = ['agent_run.created', 'agent_run.started', 'agent_run.succeeded']
    for (const t of types)
      assert.ok(
        (await events(h, t)).some((e) => e.id === run.id),
        t,
      )
  })

  it('creates one run per Idempotency-Key, and posts the output to the conversation it names', async () => {
    const agent = await newAgent(h, { tools: [refundTool(tools.url)] })
    const conv = await ok(post(h, '/inbox/conversations', { channel: 'api', contact: { email: 'ann@example.com' }, message: { content: 'My order ord_77 broke' } }), 201)
    const headers = { 'idempotency-key': `run-${agent.id}` }
    const first = await startRun(h, agent.id, 'Refund order ord_77, amount 20', { conversation_id: conv.id }, headers)
    const again = await startRun(h, agent.id, 'Refund order ord_77, amount 20', { conversation_id: conv.id }, headers)
    assert.equal(again.id, first.id)
    const page = await ok(get(h, `/agents/${agent.id}/runs`))
    assert.equal(page.data.length, 1)
    const run = await settled(h, agent.id, first.id)
    assert.equal(run.status, 'succeeded')
    const messages = await ok(get(h, `/inbox/conversations/${conv.id}/messages`))
    const posted = messages.data.find((m: any) => m.author?.type === 'agent' || m.author_type === 'agent')
    assert.ok(posted, JSON.stringify(messages.data))
    assert.equal(posted.content, run.output.text)
  })

  it('checks a JSON input against the input schema (422 with pointers), refuses a disabled agent (409) and unknown ones (404)', async () => {
    const agent = await newAgent(h, {
      tools: [refundTool(tools.url)],
      input_schema: { type: 'object', properties: { order_id: { type: 'string' }, amount: { type: 'number' } }, required: ['order_id'] },
    })
    const bad = await post(h, `/agents/${agent.id}/runs`, { input: { amount: 'ten' } })
    assertProblem(bad, 422, 'invalid_agent_input')
    const pointers = JSON.parse(bad.body)
      .errors.map((e: any) => e.pointer)
      .sort()
    assert.deepEqual(pointers, ['/body/input/amount', '/body/input/order_id'])
    assertProblem(await post(h, `/agents/${agent.id}/runs`, { input: 'refund please' }), 422, 'invalid_agent_input')
    const run = await startRun(h, agent.id, { order_id: 'ord_5', amount: 12, request: 'refund order' })
    assert.deepEqual(run.input, { json: { order_id: 'ord_5', amount: 12, request: 'refund order' } })
    // An unknown (or another workspace's) conversation in the body is the request's own error, pointed at.
    const unknownConversation = await post(h, `/agents/${agent.id}/runs`, { input: { order_id: 'ord_5', amount: 1, request: 'x' }, conversation_id: 'conv_00000000000000000000000000' })
    assertProblem(unknownConversation, 422, 'invalid_reference')
    assert.deepEqual(
      JSON.parse(unknownConversation.body).errors.map((e: any) => e.pointer),
      ['/body/conversation_id'],
    )
    await ok(h.request({ method: 'PATCH', url: `/v2/agents/${agent.id}`, payload: { status: 'disabled' } }))
    assertProblem(await post(h, `/agents/${agent.id}/runs`, { input: { order_id: 'ord_5' } }), 409, 'agent_disabled')
    assertProblem(await post(h, '/agents/agt_00000000000000000000000000/runs', { input: 'x' }), 404, 'resource_not_found')
    assertProblem(await post(h, `/agents/${agent.id}/runs`, { input: 'x' }, { key: h.b.live }), 404, 'resource_not_found')
    assertProblem(await post(h, `/agents/${agent.id}/runs`, { input: { order_id: 'ord_5' }, conversation_id: 'conv_00000000000000000000000000' }), 409, 'agent_disabled')
  })

  it('counts runs and steps in the usage report', async () => {
    const day = new Date().toISOString().slice(0, 10)
    const usage = await ok(get(h, `/workspaces/${h.a.workspaceId}/usage?from=${day}&to=${day}`))
    const text = JSON.stringify(usage)
    assert.match(text, /agent_runs/)
    assert.match(text, /agent_run_steps/)
  })
})
