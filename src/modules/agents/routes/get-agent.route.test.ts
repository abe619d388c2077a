import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { createTestApp } from '../../../../test/helpers.js'
import { assertProblem, get, newAgent, ok, refundTool } from '../agents.testkit.js'

describe('getAgent (GET /agents/{id})', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('answers the agent as defined, without its signing secret or header values', async () => {
    const agent = await newAgent(h, { name: 'Refunds', instructions: 'Refund small orders.', max_steps: 4, tools: [refundTool('http://127.0.0.1:9')], metadata: { team: 'billing' } })
    const got = await ok(get(h, `/agents/${agent.id}`))
    assert.equal(got.id, agent.id)
    assert.equal(got.object, 'agent')
    assert.equal(got.name, 'Refunds')
    assert.equal(got.instructions, 'Refund small orders.')
    assert.equal(got.max_steps, 4)
    assert.equal(got.status, 'active')
    assert.deepEqual(got.metadata, { team: 'billing' })
    assert.deepEqual(
      got.tools.map((t: any) => [t.name, t.approval.mode]),
      [['refund_order', 'when']],
    )
    assert.deepEqual(got.tools[0].header_names, ['authorization'])
    assert.equal(got.signing_secret, undefined, 'the secret is shown once, at creation')
    assert.ok(!JSON.stringify(got).includes('shop-secret'))
  })

  it("another workspace's agent and an unknown id are 404; an over-long id is 422; the read scope is required", async () => {
    const agent = await newAgent(h)
    assertProblem(await get(h, `/agents/${agent.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await get(h, '/agents/agt_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/agents/${'a'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/agents/${agent.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, `/agents/${agent.id}`, await h.key(['read'])))).id, agent.id)
  })
})
