import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, assertProblem, events, get, newNumber, ok, post, voiceApp, type VoiceApp } from '../voice.testkit.js'

const release = (h: VoiceApp, id: string, key?: string) => h.request({ method: 'DELETE', url: `/v2/voice/numbers/${id}`, ...(key ? { key } : {}) })

describe('releaseVoiceNumber', () => {
  let h: VoiceApp
  before(async () => (h = await voiceApp()))
  after(() => h.close())

  it('releases a number: gone from the workspace, free to be provisioned again, its past calls kept', async () => {
    const n = await newNumber(h, { country: 'CA', greeting: 'Hello.' })
    const call = await ok(post(h, '/voice/calls', { from_number_id: n.id, to: '+15005550006', script: ['Hi.'] }), 201)
    const ended = await advance(h, call.id)

    assert.deepEqual(await ok(release(h, n.id)), { id: n.id, object: 'voice_number', phone_number: n.phone_number, deleted: true })
    assertProblem(await get(h, `/voice/numbers/${n.id}`), 404, 'resource_not_found')
    assert.ok(!(await ok(get(h, '/voice/numbers'))).data.some((x: any) => x.id === n.id))
    assertProblem(await release(h, n.id), 404, 'resource_not_found')
    assertProblem(await post(h, '/voice/calls', { from_number_id: n.id, to: '+15005550006' }), 422, 'invalid_reference')

    const kept = await ok(get(h, `/voice/calls/${call.id}`))
    assert.equal(kept.from, n.phone_number)
    assert.equal(kept.status, ended.status)
    const released = (await events(h, 'voice_number.released')).find((e) => e.id === n.id)
    assert.equal(released?.phone_number, n.phone_number)

    // The simulated carrier hands out the lowest free number of a range: the released one comes back.
    const again = await newNumber(h, { country: 'CA' }, h.b.live)
    assert.equal(again.phone_number, n.phone_number)
    assert.notEqual(again.id, n.id)
  })

  it('409 number_in_use while a call from it is in progress; released once it has ended', async () => {
    const n = await newNumber(h, { greeting: 'Hello.' })
    const script = ['Hello, who is this?', 'I see, and what is this call about?', 'Thanks, goodbye.']
    const call = await ok(post(h, '/voice/calls', { from_number_id: n.id, to: '+15005550006', script }), 201)
    assertProblem(await release(h, n.id), 409, 'number_in_use')
    await advance(h, call.id, (c) => c.status === 'in_progress')
    assertProblem(await release(h, n.id), 409, 'number_in_use')
    await ok(get(h, `/voice/numbers/${n.id}`))
    await advance(h, call.id)
    await ok(release(h, n.id))
  })

  it('another workspace’s number is a 404 and stays; the read scope cannot release', async () => {
    const theirs = await newNumber(h, {}, h.b.live)
    assertProblem(await release(h, theirs.id), 404, 'resource_not_found')
    await ok(get(h, `/voice/numbers/${theirs.id}`, h.b.live))
    const mine = await newNumber(h)
    assertProblem(await release(h, mine.id, await h.key(['read'])), 403)
    await ok(get(h, `/voice/numbers/${mine.id}`))
  })
})
