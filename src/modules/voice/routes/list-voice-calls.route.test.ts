import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, assertProblem, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

describe('listVoiceCalls (GET /voice/calls)', () => {
  let h: VoiceApp
  let first: any
  let second: any
  const calls: Record<string, string> = {}
  before(async () => {
    h = await voiceApp()
    first = await newNumber(h, { friendly_name: 'First' })
    second = await newNumber(h, { friendly_name: 'Second' })
    // A completed call and a busy one from the first number, a no-answer from the second.
    for (const [name, from, to] of [
      ['completed', first, '+15005550006'],
      ['busy', first, '+15005550007'],
      ['no_answer', second, '+15005550008'],
    ] as const) {
      const c = await ok(post(h, '/voice/calls', { from_number_id: from.id, to }), 201)
      await advance(h, c.id)
      calls[name] = c.id
    }
    const theirs = await newNumber(h, {}, h.b.live)
    await ok(post(h, '/voice/calls', { from_number_id: theirs.id, to: '+15005550006' }, { key: h.b.live }), 201)
  })
  after(() => h.close())

  it('lists newest first, a page at a time, only this workspace', async () => {
    const all = await ok(get(h, '/voice/calls'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((c: any) => c.id),
      [calls.no_answer, calls.busy, calls.completed],
    )
    const page = await ok(get(h, '/voice/calls?limit=2'))
    assert.deepEqual(
      page.data.map((c: any) => c.id),
      [calls.no_answer, calls.busy],
    )
    assert.equal(page.has_more, true)
    const rest = await ok(get(h, `/voice/calls?limit=2&cursor=${encodeURIComponent(page.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((c: any) => c.id),
      [calls.completed],
    )
    assert.equal((await ok(get(h, '/voice/calls', h.b.live))).data.length, 1)
  })

  it('filters by status, number and direction', async () => {
    assert.deepEqual(
      (await ok(get(h, '/voice/calls?status=busy'))).data.map((c: any) => c.id),
      [calls.busy],
    )
    assert.deepEqual(
      (await ok(get(h, `/voice/calls?number_id=${first.id}`))).data.map((c: any) => c.id),
      [calls.busy, calls.completed],
    )
    assert.deepEqual(
      (await ok(get(h, `/voice/calls?number_id=${second.id}&status=no_answer`))).data.map((c: any) => c.id),
      [calls.no_answer],
    )
    assert.equal((await ok(get(h, '/voice/calls?direction=outbound'))).data.length, 3)
    assert.deepEqual((await ok(get(h, '/voice/calls?direction=inbound'))).data, [])
  })

  it('bad queries are 422 problems; the read scope is required', async () => {
    assertProblem(await get(h, '/voice/calls?status=ringing_forever'), 422, 'validation_failed')
    assertProblem(await get(h, '/voice/calls?direction=sideways'), 422, 'validation_failed')
    assertProblem(await get(h, '/voice/calls?cursor=garbage'), 422, 'invalid_cursor')
    assertProblem(await get(h, '/voice/calls', await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
