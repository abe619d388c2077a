import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { createTestApp, json } from '../../../../test/helpers.js'
import { assertProblem, events, get, newAgent, ok, patch, post, refundTool } from '../agents.testkit.js'

// create-agent.route.test.ts also updates tools in depth; this file holds updateAgent's own promises.
describe('updateAgent (PATCH /agents/{id})', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('changes only what is given; `tools` replaces the list and a kept tool keeps its id', async () => {
    const agent = await newAgent(h, { name: 'Before', instructions: 'Old rules.', tools: [refundTool('http://127.0.0.1:9')] })
    const renamed = await ok(patch(h, `/agents/${agent.id}`, { name: 'After' }))
    assert.equal(renamed.name, 'After')
    assert.equal(renamed.instructions, 'Old rules.', 'fields not sent are kept')
    assert.equal(renamed.tools[0].id, agent.tools[0].id)
    const replaced = await ok(patch(h, `/agents/${agent.id}`, { tools: [refundTool('http://127.0.0.1:9'), { type: 'builtin', name: 'search_knowledge' }] }))
    assert.deepEqual(
      replaced.tools.map((t: any) => t.name),
      ['refund_order', 'search_knowledge'],
    )
    assert.equal(replaced.tools[0].id, agent.tools[0].id)
    const cleared = await ok(patch(h, `/agents/${agent.id}`, { tools: [] }))
    assert.deepEqual(cleared.tools, [])
    assert.deepEqual(await ok(get(h, `/agents/${agent.id}`)), cleared)
    assert.ok((await events(h, 'agent.updated')).some((e) => e.id === agent.id && e.name === 'After'))
  })

  it('status disabled refuses new runs; active takes them again', async () => {
    const agent = await newAgent(h)
    assert.equal((await ok(patch(h, `/agents/${agent.id}`, { status: 'disabled' }))).status, 'disabled')
    const refused = await post(h, `/agents/${agent.id}/runs`, { input: 'Hello' })
    assert.ok(refused.statusCode >= 400 && refused.statusCode < 500, refused.body)
    assert.match(String(refused.headers['content-type']), /application\/problem\+json/)
    await ok(patch(h, `/agents/${agent.id}`, { status: 'active' }))
    await ok(post(h, `/agents/${agent.id}/runs`, { input: 'Hello' }), 201)
  })

  it('bad bodies are 422 with a pointer; another workspace is 404; the write scope is required', async () => {
    const agent = await newAgent(h)
    assertProblem(await patch(h, `/agents/${agent.id}`, {}), 422, 'validation_failed')
    assertProblem(await patch(h, `/agents/${agent.id}`, { max_steps: 0 }), 422, 'validation_failed')
    const kb = await patch(h, `/agents/${agent.id}`, { knowledge_base_ids: ['kb_00000000000000000000000000'] })
    assertProblem(kb, 422, 'invalid_reference')
    assert.equal(json(kb).errors[0].pointer, '/body/knowledge_base_ids/0')
    const dup = await patch(h, `/agents/${agent.id}`, { tools: [refundTool('http://127.0.0.1:9'), refundTool('http://127.0.0.1:9')] })
    assertProblem(dup, 422, 'invalid_agent_tools')
    assertProblem(await patch(h, `/agents/${agent.id}`, { name: 'Theirs' }, h.b.live), 404, 'resource_not_found')
    assertProblem(await patch(h, `/agents/${agent.id}`, { name: 'Read only' }, await h.key(['read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, `/agents/${agent.id}`))).name, 'Refund agent', 'refused updates changed nothing')
  })
})
