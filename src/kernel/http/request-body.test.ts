import assert from 'node:assert/strict'
import { gzipSync } from 'node:zlib'
import { after, before, describe, it } from 'node:test'
import { assertProblem, createTestApp, json, type TestApp } from '../../../test/helpers.js'

describe('request bodies: UTF-8 and Content-Encoding', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  const create = (payload: Buffer | string, headers: Record<string, string> = {}) =>
    h.request({ method: 'POST', url: '/v2/inbox/conversations', headers: { 'content-type': 'application/json', ...headers }, payload })
  const subjects = async () => json(await h.request({ method: 'GET', url: '/v2/inbox/conversations?limit=100' })).data.map((c: any) => c.subject)

  it('refuses invalid UTF-8 inside a JSON string with 400 instead of storing U+FFFD', async () => {
    for (const bad of [[0xff], [0xc3, 0x28], [0xe2, 0x82], [0xed, 0xa0, 0x80] /* a lone surrogate */, [0xf8, 0x88, 0x80, 0x80, 0x80]]) {
      const payload = Buffer.concat([Buffer.from('{"subject":"bad '), Buffer.from(bad), Buffer.from('"}')])
      const res = await create(payload)
      assertProblem(res, 400, 'malformed_json')
      assert.match(json(res).detail, /UTF-8/)
    }
    assert.ok(!(await subjects()).some((s: string) => s?.includes('\uFFFD')), 'nothing was stored with U+FFFD')
    // Well-formed multi-byte text (and a leading BOM) is read as sent.
    const good = await create(Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from('{"subject":"Grüße 👋 ☃"}')]))
    assert.equal(good.statusCode, 201, good.body)
    assert.equal(json(good).subject, 'Grüße 👋 ☃')
  })

  it('refuses a compressed request body with 415 and Accept-Encoding: identity', async () => {
    const body = JSON.stringify({ subject: 'compressed' })
    for (const [encoding, payload] of [
      ['gzip', gzipSync(body)],
      ['br', Buffer.from(body)],
      ['deflate, identity', Buffer.from(body)],
      ['GZIP', gzipSync(body)],
    ] as const) {
      const res = await create(payload, { 'content-encoding': encoding })
      assertProblem(res, 415, 'unsupported_media_type')
      assert.equal(res.headers['accept-encoding'], 'identity')
      assert.match(json(res).detail, /Content-Encoding/)
    }
    // Authentication still comes first.
    assertProblem(
      await h.request({ method: 'POST', url: '/v2/inbox/conversations', key: null, headers: { 'content-type': 'application/json', 'content-encoding': 'gzip' }, payload: gzipSync(body) }),
      401,
    )
    assert.ok(!(await subjects()).includes('compressed'))
    // identity is no encoding at all, and a request without a body may carry the header.
    assert.equal((await create(body, { 'content-encoding': 'identity' })).statusCode, 201)
    assert.equal((await h.request({ method: 'GET', url: '/v2/inbox/conversations', headers: { 'content-encoding': 'gzip' } })).statusCode, 200)
  })
})
