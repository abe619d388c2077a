import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { buildApp } from '../../../app.js'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { json } from '../../../../test/helpers.js'
import { agentsApp, assertProblem, events, get, newAgent, ok, patch, post, refundTool } from '../agents.testkit.js'

describe('createAgent, getAgent, updateAgent, listAgents', () => {
  let h: TestApp
  before(async () => (h = await agentsApp()))
  after(() => h.close())

  it('creates an agent with tools and approval policies; the signing secret is shown once and header values never', async () => {
    const kb = await ok(post(h, '/knowledge/bases', { name: 'Policies' }), 201)
    const agent = await newAgent(h, {
      description: 'Refunds small orders',
      instructions: 'Refund what the customer asks.',
      tools: [refundTool('http://127.0.0.1:9'), { type: 'builtin', name: 'search_knowledge', approval: { mode: 'always' } }],
      knowledge_base_ids: [kb.id],
      max_steps: 5,
      run_timeout_seconds: 60,
      ai: { temperature: 0.2 },
      metadata: { team: 'billing' },
    })
    assert.match(agent.id, /^agt_/)
    assert.match(agent.signing_secret, /^whsec_/)
    assert.equal(agent.status, 'active')
    assert.deepEqual(
      agent.tools.map((t: any) => [t.name, t.approval.mode]),
      [
        ['refund_order', 'when'],
        ['search_knowledge', 'always'],
      ],
    )
    assert.deepEqual(agent.tools[0].header_names, ['authorization'])
    assert.ok(!JSON.stringify(agent).includes('shop-secret'))
    const got = await ok(get(h, `/agents/${agent.id}`))
    assert.equal(got.signing_secret, undefined)
    assert.deepEqual({ ...got, signing_secret: undefined }, { ...agent, signing_secret: undefined })
    const row = await h.app.kernel.db.selectFrom('agents').selectAll().where('id', '=', agent.id).executeTakeFirstOrThrow()
    assert.ok(!row.tools.includes('shop-secret') && !row.signing_secret_sealed.includes(agent.signing_secret), 'secrets sealed at rest')
    assert.equal((await events(h, 'agent.created')).filter((e) => e.id === agent.id).length, 1)
  })

  it('updates: a kept tool keeps its id and headers; disabled agents list apart', async () => {
    const agent = await newAgent(h, { tools: [refundTool('http://127.0.0.1:9')] })
    const { headers: _h, ...withoutHeaders } = refundTool('http://127.0.0.1:9', { description: 'Refund an order (v2).' }) as any
    const updated = await ok(patch(h, `/agents/${agent.id}`, { tools: [withoutHeaders], status: 'disabled' }))
    assert.equal(updated.tools[0].id, agent.tools[0].id)
    assert.deepEqual(updated.tools[0].header_names, ['authorization'])
    assert.equal(updated.tools[0].description, 'Refund an order (v2).')
    assert.ok(Date.parse(updated.updated_at) >= Date.parse(agent.updated_at))
    const disabled = await ok(get(h, '/agents?status=disabled'))
    assert.ok(disabled.data.some((a: any) => a.id === agent.id))
    assert.ok(!(await ok(get(h, '/agents?status=active'))).data.some((a: any) => a.id === agent.id))
    assert.equal((await events(h, 'agent.updated')).filter((e) => e.id === agent.id).length, 1)
  })

  it('refuses bad definitions with pointers, and hides other workspaces (404)', async () => {
    const dup = await post(h, '/agents', { name: 'x', tools: [refundTool('http://127.0.0.1:9'), refundTool('http://127.0.0.1:9')] })
    assertProblem(dup, 422, 'invalid_agent_tools')
    assert.equal(json(dup).errors[0].pointer, '/body/tools/1/name')
    const cond = await post(h, '/agents', { name: 'x', tools: [refundTool('http://127.0.0.1:9', { approval: { mode: 'when', when: { argument: 'total', operator: 'gt', value: 1 } } })] })
    assertProblem(cond, 422, 'invalid_agent_tools')
    assert.equal(json(cond).errors[0].pointer, '/body/tools/0/approval/when/argument')
    const val = await post(h, '/agents', { name: 'x', tools: [refundTool('http://127.0.0.1:9', { approval: { mode: 'when', when: { argument: 'amount', operator: 'gt', value: 'many' } } })] })
    assert.equal(json(val).errors[0].pointer, '/body/tools/0/approval/when/value')
    const kb = await post(h, '/agents', { name: 'x', knowledge_base_ids: ['kb_00000000000000000000000000'] })
    assertProblem(kb, 422, 'invalid_reference')
    assert.equal(json(kb).errors[0].pointer, '/body/knowledge_base_ids/0')
    assertProblem(await post(h, '/agents', { name: 'x', input_schema: { type: 'string' } }), 422)
    assertProblem(await post(h, '/agents', { name: 'x', max_steps: 0 }), 422)
    assertProblem(await post(h, '/agents', { name: 'x', ai: { provider: 'openai' } }), 422)
    assertProblem(await post(h, '/agents', { name: 'x', tools: [{ type: 'builtin', name: 'no_such_tool' }] }), 422)
    const agent = await newAgent(h)
    assertProblem(await get(h, `/agents/${agent.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await patch(h, `/agents/${agent.id}`, { name: 'y' }, h.b.live), 404, 'resource_not_found')
    assertProblem(await patch(h, `/agents/${agent.id}`, {}), 422)
    assert.ok(!(await ok(get(h, '/agents', h.b.live))).data.some((a: any) => a.id === agent.id))
  })

  it('reseals the signing secret and tool headers after a server secret rotation', async () => {
    const agent = await newAgent(h, { tools: [refundTool('http://127.0.0.1:9')] })
    const read = () => h.app.kernel.db.selectFrom('agents').select(['signing_secret_sealed', 'tools']).where('id', '=', agent.id).executeTakeFirstOrThrow()
    const before = await read()
    const next = randomBytes(32).toString('base64url')
    const second = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [h.config.serverSecret!] }, database: h.app.kernel.database })
    try {
      assert.ok((await second.services.agents.agents.reseal()) >= 1)
      assert.equal(await second.services.agents.agents.reseal(), 0, 'nothing left to reseal')
      const after = await read()
      assert.notEqual(after.signing_secret_sealed, before.signing_secret_sealed)
      // Only the new secret: the values still open to what the owner gave.
      const only = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [] }, database: h.app.kernel.database })
      try {
        assert.equal(only.kernel.secrets.open(after.signing_secret_sealed, agent.id), agent.signing_secret)
        const tool = JSON.parse(after.tools)[0]
        assert.deepEqual(JSON.parse(only.kernel.secrets.open(tool.headers_sealed, tool.owner_id)), { authorization: 'Bearer shop-secret' })
      } finally {
        await only.http.close()
        await only.redis?.quit()
      }
    } finally {
      await second.http.close()
      await second.redis?.quit()
    }
  })
})
