import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, get, newChannel, ok } from '../channels.testkit.js'

describe('listChannels', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
  })
  after(() => h.close())

  it('lists the workspace’s channels newest first, filtered by type, paged', async () => {
    const sms = await newChannel(h, { phone_number: '+14155550111' })
    const wa = await newChannel(h, { type: 'whatsapp', phone_number: '+14155550112' })
    await newChannel(h, { phone_number: '+14155550113' }, h.b.live)
    const all = await ok(get(h, '/channels'))
    assert.deepEqual(
      all.data.map((c: any) => c.id),
      [wa.id, sms.id],
    )
    assert.deepEqual(
      (await ok(get(h, '/channels?type=whatsapp'))).data.map((c: any) => c.id),
      [wa.id],
    )
    const first = await ok(get(h, '/channels?limit=1'))
    assert.equal(first.data[0].id, wa.id)
    const second = await ok(get(h, `/channels?limit=1&cursor=${encodeURIComponent(first.next_cursor)}`))
    assert.deepEqual(
      second.data.map((c: any) => c.id),
      [sms.id],
    )
    assertProblem(await get(h, '/channels?type=fax'), 422, 'validation_failed')
  })
})
