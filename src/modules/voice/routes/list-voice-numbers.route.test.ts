import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { assertProblem, get, newNumber, ok, voiceApp, type VoiceApp } from '../voice.testkit.js'

describe('listVoiceNumbers (GET /voice/numbers)', () => {
  let h: VoiceApp
  const ids: string[] = []
  before(async () => {
    h = await voiceApp()
    for (const country of ['US', 'GB', 'CA']) {
      ids.push((await newNumber(h, { country, friendly_name: `${country} line` })).id)
      h.clock.advance(1000)
    }
    await newNumber(h, { country: 'GB', friendly_name: 'Theirs' }, h.b.live)
  })
  after(() => h.close())

  it('lists newest first, a page at a time, only this workspace', async () => {
    const all = await ok(get(h, '/voice/numbers'))
    assert.equal(all.object, 'list')
    assert.deepEqual(
      all.data.map((n: any) => n.friendly_name),
      ['CA line', 'GB line', 'US line'],
    )
    const first = await ok(get(h, '/voice/numbers?limit=2'))
    assert.deepEqual(
      first.data.map((n: any) => n.id),
      [ids[2], ids[1]],
    )
    assert.equal(first.has_more, true)
    const rest = await ok(get(h, `/voice/numbers?limit=2&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      rest.data.map((n: any) => n.id),
      [ids[0]],
    )
    assert.equal(rest.has_more, false)
  })

  it('filters by country', async () => {
    assert.deepEqual(
      (await ok(get(h, '/voice/numbers?country=GB'))).data.map((n: any) => n.id),
      [ids[1]],
    )
    assert.deepEqual((await ok(get(h, '/voice/numbers?country=AU'))).data, [])
    assert.deepEqual(
      (await ok(get(h, '/voice/numbers?country=GB', h.b.live))).data.map((n: any) => n.friendly_name),
      ['Theirs'],
    )
  })

  it('bad queries are 422 problems; the read scope is required', async () => {
    assertProblem(await get(h, '/voice/numbers?country=gb'), 422, 'validation_failed')
    assertProblem(await get(h, '/voice/numbers?country=GBR'), 422, 'validation_failed')
    assertProblem(await get(h, '/voice/numbers?cursor=garbage'), 422, 'invalid_cursor')
    assertProblem(await get(h, '/voice/numbers', await h.key(['bots:read'])), 403, 'insufficient_scope')
  })
})
