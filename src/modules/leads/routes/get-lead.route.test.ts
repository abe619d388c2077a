import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, get, leadsApp, ok, post } from '../leads.testkit.js'

describe('getLead (GET /leads/{id})', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('answers the lead as created, with its explained score and no CRM sync yet', async () => {
    const made = await ok(post(h, '/leads', { name: 'Katherine Johnson', email: 'kj@nasa.example', company: 'NASA', properties: { seats: 12 }, tags: ['referral'] }), 201)
    const got = await ok(get(h, `/leads/${made.id}`))
    assert.match(got.id, /^lead_/)
    assert.equal(got.object, 'lead')
    assert.equal(got.name, 'Katherine Johnson')
    assert.equal(got.email, 'kj@nasa.example')
    assert.equal(got.company, 'NASA')
    assert.equal(got.status, 'new')
    assert.equal(got.source, 'api')
    assert.deepEqual(got.properties, { seats: 12 })
    assert.deepEqual(got.tags, ['referral'])
    assert.deepEqual(got.score.factors, ['+20 gave an email address', '+10 company given (NASA)'])
    assert.equal(got.score.score, 30)
    assert.equal(got.crm.sync_status, 'never')
    assert.deepEqual(got, made)
  })

  it("another workspace's lead, the sandbox and an unknown id are 404; an over-long id is 422; leads:read is required", async () => {
    const made = await ok(post(h, '/leads', { name: 'Dorothy', email: 'dorothy@nasa.example' }), 201)
    assertProblem(await get(h, `/leads/${made.id}`, h.b.live), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'GET', url: `/sandbox/v2/leads/${made.id}`, key: h.a.test }), 404, 'resource_not_found')
    assertProblem(await get(h, '/leads/lead_00000000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await get(h, `/leads/${'l'.repeat(65)}`), 422, 'validation_failed')
    assertProblem(await get(h, `/leads/${made.id}`, await h.key(['bots:read'])), 403, 'insufficient_scope')
    assert.equal((await ok(get(h, `/leads/${made.id}`, await h.key(['leads:read'])))).id, made.id)
  })
})
