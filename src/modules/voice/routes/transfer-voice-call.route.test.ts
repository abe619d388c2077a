import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { advance, assertProblem, events, get, newNumber, ok, post, voiceApp, voiceBot, type VoiceApp } from '../voice.testkit.js'

describe('transferVoiceCall', () => {
  let h: VoiceApp
  let num: any
  let bot: any
  before(async () => {
    h = await voiceApp()
    bot = await voiceBot(h)
    num = await newNumber(h, { bot_id: bot.id })
  })
  after(() => h.close())

  const inProgress = async (script = ['When are parcels delivered?', 'Can I return a parcel?']) => {
    const c = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+14155550142', record: true, script }), 201)
    return advance(h, c.id, (x) => x.status === 'in_progress')
  }

  it('moves a call in progress to a number: history, event, the rest of the call replanned', async () => {
    const call = await inProgress()
    h.clock.advance(2000)
    const moved = await ok(post(h, `/voice/calls/${call.id}/transfer`, { to: { phone_number: '+1 (415) 555-0188' }, announcement: 'Connecting you to our delivery desk.' }))
    assert.equal(moved.status, 'in_progress')
    assert.deepEqual(
      moved.transfers.map((t: any) => [t.to.type, t.to.phone_number, t.mode, t.announcement]),
      [['number', '+14155550188', 'cold', 'Connecting you to our delivery desk.']],
    )
    assert.ok((await events(h, 'call.transferred')).some((e) => e.id === call.id))
    const done = await advance(h, call.id)
    assert.equal(done.status, 'completed')
    const t = await ok(get(h, `/voice/calls/${call.id}/transcript`))
    const texts = t.segments.map((s: any) => s.text)
    assert.ok(texts.includes('Connecting you to our delivery desk.'))
    assert.ok(
      t.segments.some((s: any) => s.speaker === 'member'),
      'the target speaks after the transfer',
    )
    for (const [i, s] of t.segments.entries()) if (i > 0) assert.ok(s.start_ms >= t.segments[i - 1].end_ms)
    const rec = await ok(get(h, `/voice/calls/${call.id}/recording`))
    assert.equal(rec.status, 'ready')
    assert.equal(rec.duration_ms, Date.parse(done.ended_at) - Date.parse(done.answered_at))
  })

  it('to a member, warm; the member’s line is theirs in the conversation', async () => {
    const members = (await ok(get(h, `/workspaces/${h.a.workspaceId}/members`))).data
    const owner = members.find((m: any) => m.status === 'active')
    const call = await inProgress(['Hello?'])
    const moved = await ok(post(h, `/voice/calls/${call.id}/transfer`, { to: { member_id: owner.id }, mode: 'warm' }))
    assert.equal(moved.transfers[0].mode, 'warm')
    const done = await advance(h, call.id)
    const messages = (await ok(get(h, `/inbox/conversations/${done.conversation_id}/messages?order=asc`))).data
    assert.ok(
      messages.some((m: any) => m.author?.type === 'member' || m.author_type === 'member'),
      JSON.stringify(messages.at(-2)),
    )
  })

  it('only in progress: 409 before the answer and after the end; bad targets are 422', async () => {
    const queued = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550006' }), 201)
    assertProblem(await post(h, `/voice/calls/${queued.id}/transfer`, { to: { phone_number: '+14155550188' } }), 409, 'call_not_in_progress')
    const ended = await advance(h, queued.id)
    assertProblem(await post(h, `/voice/calls/${ended.id}/transfer`, { to: { phone_number: '+14155550188' } }), 409, 'call_not_in_progress')
    const busy = await ok(post(h, '/voice/calls', { from_number_id: num.id, to: '+15005550007' }), 201)
    await advance(h, busy.id)
    const refused = await post(h, `/voice/calls/${busy.id}/transfer`, { to: { phone_number: '+14155550188' } })
    assertProblem(refused, 409, 'call_not_in_progress')
    assert.equal(JSON.parse(refused.body).call_status, 'busy')
    const live = await inProgress(['Hello?'])
    assertProblem(await post(h, `/voice/calls/${live.id}/transfer`, { to: { phone_number: 'nope' } }), 422, 'validation_failed')
    assertProblem(await post(h, `/voice/calls/${live.id}/transfer`, { to: {} }), 422, 'validation_failed')
    assertProblem(await post(h, `/voice/calls/${live.id}/transfer`, { to: { phone_number: '+14155550188', member_id: 'mem_x' } }), 422, 'validation_failed')
    assertProblem(await post(h, `/voice/calls/${live.id}/transfer`, { to: { member_id: 'mem_01JD0000000000000000000000' } }), 422, 'invalid_reference')
    assertProblem(await post(h, `/voice/calls/${live.id}/transfer`, { to: { phone_number: '+14155550188' } }, { key: h.b.live }), 404, 'resource_not_found')
  })
})
