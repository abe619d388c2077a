import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import type { TestApp } from '../../../../test/helpers.js'
import { assertProblem, events, get, leadsApp, newLead, ok, post } from '../leads.testkit.js'

const STATUSES = ['new', 'contacted', 'qualified', 'converted', 'unqualified', 'lost'] as const
type Status = (typeof STATUSES)[number]
/**
 * The answer key: docs/leads.md's "Status machine" table, copied here row by row (from → the statuses it may move
 * to), not imported from lead-status.ts: a wrong production table must fail this test, not agree with it.
 */
const ALLOWED: Record<Status, Status[]> = {
  new: ['contacted', 'qualified', 'unqualified', 'lost'],
  contacted: ['qualified', 'unqualified', 'lost'],
  qualified: ['converted', 'unqualified', 'lost'],
  converted: [],
  unqualified: ['new', 'contacted'],
  lost: ['new', 'contacted'],
}
/** How to bring a new lead to each status through allowed moves. */
const PATH: Record<Status, Status[]> = {
  new: [],
  contacted: ['contacted'],
  qualified: ['qualified'],
  converted: ['qualified', 'converted'],
  unqualified: ['unqualified'],
  lost: ['lost'],
}

describe('updateLeadStatus', () => {
  let h: TestApp
  before(async () => (h = await leadsApp()))
  after(() => h.close())

  it('follows the machine: every (from, to) pair is allowed or 409, as the documented table says', async () => {
    for (const from of STATUSES) {
      for (const to of STATUSES) {
        const lead = await newLead(h)
        for (const step of PATH[from]) await ok(post(h, `/leads/${lead.id}/status`, { status: step }))
        const r = await post(h, `/leads/${lead.id}/status`, { status: to, reason: `test ${from}→${to}` })
        if (ALLOWED[from].includes(to)) {
          assert.equal(r.statusCode, 200, `${from} → ${to}: ${r.body}`)
          assert.equal(JSON.parse(r.body).status, to)
        } else {
          assertProblem(r, 409, 'invalid_lead_transition')
        }
      }
    }
  })

  it('records each change as an activity with its reason, and emits lead.status_changed', async () => {
    const lead = await newLead(h)
    await ok(post(h, `/leads/${lead.id}/status`, { status: 'contacted', reason: 'Called on Monday' }))
    await ok(post(h, `/leads/${lead.id}/status`, { status: 'lost', reason: 'Chose a competitor' }))
    await ok(post(h, `/leads/${lead.id}/status`, { status: 'new', reason: 'Came back' }))
    const acts = await ok(get(h, `/leads/${lead.id}/activities`))
    assert.deepEqual(
      acts.data.map((a: any) => [a.type, a.data.from, a.data.to, a.data.reason]),
      [
        ['status_change', 'lost', 'new', 'Came back'],
        ['status_change', 'contacted', 'lost', 'Chose a competitor'],
        ['status_change', 'new', 'contacted', 'Called on Monday'],
      ],
    )
    assert.match(acts.data[0].actor, /^key_/)
    assert.equal((await events(h, 'lead.status_changed')).filter((e) => e.id === lead.id).length, 3)
    assertProblem(await post(h, `/leads/${lead.id}/status`, { status: 'won' }), 422)
    assertProblem(await post(h, `/leads/${lead.id}/status`, { status: 'contacted' }, { key: h.b.live }), 404)
  })
})
