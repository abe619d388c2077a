import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { agentsApp, assertProblem, get, newAgent, ok, settled, startRun } from '../agents.testkit.js'

describe('listAgentRuns', () => {
  let h: TestApp
  before(async () => (h = await agentsApp()))
  after(() => h.close())

  it('lists runs newest first with a status filter; include=postmortem answers with well-formed deprecation headers, and only it', async () => {
    // max_steps 1 with a tool the input matches: the only step is spent planning, so the run fails.
    const agent = await newAgent(h, {
      max_steps: 1,
      tools: [
        {
          type: 'http',
          name: 'refund_order',
          description: 'Refund an order amount.',
          url: 'http://127.0.0.1:9/x',
          parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
        },
      ],
    })
    const a = await settled(h, agent.id, (await startRun(h, agent.id, 'What are your opening hours?')).id)
    const b = await settled(h, agent.id, (await startRun(h, agent.id, 'Hello')).id)
    const page = await ok(get(h, `/agents/${agent.id}/runs`))
    assert.deepEqual(
      page.data.map((r: any) => r.id),
      [b.id, a.id],
    )
    assert.equal(page.data[0].steps, undefined)
    assert.equal(page.data[0].postmortem, undefined)
    const plain = await h.request({ method: 'GET', url: `/v2/agents/${agent.id}/runs` })
    for (const name of ['deprecation', 'sunset', 'link']) assert.equal(plain.headers[name], undefined, name)

    const dep = await h.request({ method: 'GET', url: `/v2/agents/${agent.id}/runs?include=postmortem` })
    assert.equal(dep.statusCode, 200)
    // RFC 9745: an SF date (@ + Unix seconds); RFC 8594: an HTTP-date after it; links to the docs and getAgentRun.
    const deprecation = String(dep.headers.deprecation)
    assert.match(deprecation, /^@\d+$/)
    const sunset = String(dep.headers.sunset)
    assert.match(sunset, /^[A-Z][a-z]{2}, \d{2} [A-Z][a-z]{2} \d{4} \d{2}:\d{2}:\d{2} GMT$/)
    assert.ok(Date.parse(sunset) > Number(deprecation.slice(1)) * 1000)
    const link = String(dep.headers.link)
    assert.match(link, /<[^>]+\/api-docs\/agents\/listAgentRuns>; rel="deprecation"/)
    assert.match(link, /<[^>]+\/api-docs\/agents\/getAgentRun>; rel="successor-version"/)
    for (const r of JSON.parse(dep.body).data) assert.ok('postmortem' in r)
    const filtered = await ok(get(h, `/agents/${agent.id}/runs?status=${a.status}&include=postmortem`))
    assert.ok(filtered.data.every((r: any) => r.status === a.status))
    // The old path still 404s like any other on an unknown agent, without deprecation headers.
    const missing = await h.request({ method: 'GET', url: '/v2/agents/agt_00000000000000000000000000/runs?include=postmortem' })
    assertProblem(missing, 404, 'resource_not_found')
    assert.equal(missing.headers.deprecation, undefined)
    assertProblem(await h.request({ method: 'GET', url: `/v2/agents/${agent.id}/runs?include=steps` }), 422)
  })
})
