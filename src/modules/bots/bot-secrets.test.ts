import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { buildApp } from '../../app.js'
import type { TestApp } from '../../../test/helpers.js'
import { botsApp, newBot, ok, post } from './bots.testkit.js'

describe('bots: secrets reseal after a server secret rotation', () => {
  let h: TestApp
  before(async () => (h = await botsApp()))
  after(() => h.close())

  it('reseals attached tools and the copies frozen in versions; they open with the new secret alone', async () => {
    const bot = await newBot(h)
    const tool = await ok(
      post(h, `/bots/${bot.id}/tools`, {
        type: 'http',
        name: 'lookup_order',
        description: 'Look up an order.',
        url: 'https://shop.example/orders',
        headers: { Authorization: 'Bearer shop-secret' },
        parameters: { type: 'object', properties: { order_id: { type: 'string' } }, required: ['order_id'] },
      }),
      201,
    )
    const version = await ok(post(h, `/bots/${bot.id}/versions`, { note: 'with the tool' }), 201)
    const db = h.app.kernel.db
    const readTool = () => db.selectFrom('bot_tools').select(['headers_sealed', 'signing_secret_sealed']).where('id', '=', tool.id).executeTakeFirstOrThrow()
    const readVersion = async () => JSON.parse((await db.selectFrom('bot_versions').select('config').where('id', '=', version.id).executeTakeFirstOrThrow()).config)
    const before = await readTool()
    const next = randomBytes(32).toString('base64url')
    const rotated = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [h.config.serverSecret!] }, database: h.app.kernel.database })
    try {
      const bots = rotated.kernel.modules.find((m) => m.name === 'bots')!
      assert.ok((await bots.reseal!(rotated.kernel, rotated.services)) >= 2, 'the tool and the version')
      assert.equal(await bots.reseal!(rotated.kernel, rotated.services), 0, 'nothing left')
    } finally {
      await rotated.http.close()
      await rotated.redis?.quit()
    }
    const afterTool = await readTool()
    assert.notEqual(afterTool.headers_sealed, before.headers_sealed)
    const only = await buildApp({ config: { ...h.config, serverSecret: next, serverSecretPrevious: [] }, database: h.app.kernel.database })
    try {
      const box = only.kernel.secrets
      assert.deepEqual(JSON.parse(box.open(afterTool.headers_sealed!, tool.id)), { Authorization: 'Bearer shop-secret' })
      assert.equal(box.open(afterTool.signing_secret_sealed!, tool.id), tool.signing_secret)
      const frozen = (await readVersion()).tools.find((t: any) => t.id === tool.id)
      assert.deepEqual(JSON.parse(box.open(frozen.headers_sealed, tool.id)), { Authorization: 'Bearer shop-secret' })
    } finally {
      await only.http.close()
      await only.redis?.quit()
    }
  })
})
