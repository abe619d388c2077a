import assert from 'node:assert/strict'
import net from 'node:net'
import { after, before, describe, it } from 'node:test'
import { MAX_JSON_DEPTH } from '../src/kernel/http/json-body.js'
import { assertProblem, createTestApp, json, ok, post, type TestApp } from './helpers.js'

/** `{"a":{"a":…1…}}`, `levels` objects deep. */
const nested = (levels: number): string => '{"a":'.repeat(levels - 1) + '{"a":1}' + '}'.repeat(levels - 1)
const pointers = (res: { body: string }) => (JSON.parse(res.body).errors ?? []).map((e: { pointer: string }) => e.pointer)

describe('JSON request bodies and unknown methods (issue 30, findings 0 and 9)', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())
  const raw = (method: string, url: string, body: string, headers: Record<string, string> = {}) =>
    h.request({ method: method as 'POST', url, payload: body, headers: { 'content-type': 'application/json', ...headers } })

  describe('depth limit on free-form JSON', () => {
    it('an agent run whose input nests 5,000 deep is 422 with a pointer to where the limit was passed, not a 500', async () => {
      const agent = await ok(post(h, '/agents', { name: 'Deep' }), 201)
      const res = await raw('POST', `/v2/agents/${agent.id}/runs`, `{"input":${nested(5000)}}`)
      assertProblem(res, 422, 'validation_failed')
      const [pointer] = pointers(res)
      // /body is level 1, /body/input level 2: the first container past the limit sits MAX_JSON_DEPTH segments below /body.
      assert.equal(pointer, '/body/input' + '/a'.repeat(MAX_JSON_DEPTH - 1), pointer)
      // The same for arrays and for the dry-run.
      const arrays = await raw('POST', `/v2/agents/${agent.id}/dry-run`, `{"input":{"list":${'['.repeat(5000)}${']'.repeat(5000)}}}`)
      assertProblem(arrays, 422, 'validation_failed')
      assert.match(pointers(arrays)[0], /^\/body\/input\/list(\/0)+$/)
    })

    it('a body at the limit is read as usual', async () => {
      const agent = await ok(post(h, '/agents', { name: 'Shallow' }), 201)
      const res = await raw('POST', `/v2/agents/${agent.id}/runs`, `{"input":${nested(MAX_JSON_DEPTH - 1)}}`)
      assert.equal(res.statusCode, 201, res.body)
    })
  })

  describe('prototype keys', () => {
    it('__proto__, constructor and prototype keys are 422 with a pointer, anywhere in the body (not "malformed JSON")', async () => {
      const url = `/v2/workspaces/${h.a.workspaceId}`
      for (const [body, pointer] of [
        ['{"__proto__":{"admin":true}}', '/body/__proto__'],
        ['{"name":"x","constructor":{"prototype":{"admin":true}}}', '/body/constructor'],
        ['{"name":"x","settings":{"deep":[{"prototype":1}]}}', '/body/settings/deep/0/prototype'],
      ] as const) {
        const res = await raw('PATCH', url, body)
        assertProblem(res, 422, 'validation_failed')
        assert.deepEqual(pointers(res), [pointer], body)
      }
      assert.equal(({} as Record<string, unknown>).admin, undefined)
      // Malformed JSON is still 400.
      assertProblem(await raw('PATCH', url, '{"name": '), 400, 'malformed_json')
    })
  })

  describe('an empty body with Content-Type: application/json', () => {
    it('is no body where none is required (a cancel), as Stripe reads it', async () => {
      const agent = await ok(post(h, '/agents', { name: 'Cancel me' }), 201)
      const run = await ok(post(h, `/agents/${agent.id}/runs`, { input: 'hello' }), 201)
      const res = await raw('POST', `/v2/agents/${agent.id}/runs/${run.id}/cancel`, '')
      assert.ok(res.statusCode === 200 || res.statusCode === 409, res.body)
      assert.notEqual(json(res).code, 'malformed_json')
    })

    it('is 422 naming the missing fields where a body is required', async () => {
      assertProblem(await raw('POST', '/v2/agents', ''), 422, 'validation_failed')
      const res = await raw('POST', `/v2/workspaces/${h.a.workspaceId}/members`, '')
      assertProblem(res, 422, 'validation_failed')
      assert.deepEqual(pointers(res), ['/body/email'])
    })
  })

  describe('405 for a known path with an unknown method', () => {
    it('also without a Content-Type, and for methods that carry a body (QUERY): 405 with Allow; unknown paths stay 404', async () => {
      for (const [method, headers, payload] of [
        ['QUERY', {}, undefined],
        ['QUERY', {}, 'x'],
        ['PUT', {}, 'not json'],
        ['POST', { 'content-type': 'application/json' }, '{"broken": '],
        ['POST', { 'content-type': 'text/xml' }, '<x/>'],
      ] as const) {
        const res = await h.request({ method: method as 'PUT', url: '/v2/workspaces/current', headers, ...(payload !== undefined ? { payload } : {}) })
        assertProblem(res, 405, 'method_not_allowed')
        assert.deepEqual(String(res.headers.allow).split(', ').sort(), ['GET', 'PATCH'], `${method} ${payload}`)
      }
      assertProblem(await h.request({ method: 'QUERY' as 'PUT', url: '/v2/no/such/thing' }), 404, 'route_not_found')
      assertProblem(await h.request({ method: 'POST', url: '/v2/no/such/thing', headers: { 'content-type': 'application/json' }, payload: '{' }), 404, 'route_not_found')
    })

    it('a method the HTTP parser does not know (FOO) is 405 on a known path and 404 on an unknown one', async () => {
      await h.app.http.listen({ port: 0, host: '127.0.0.1' })
      const { port } = h.app.http.server.address() as net.AddressInfo
      const send = (text: string) =>
        new Promise<string>((resolve) => {
          let out = ''
          const socket = net.connect(port, '127.0.0.1', () => socket.write(text))
          socket.on('data', (d) => (out += String(d)))
          socket.on('close', () => resolve(out))
        })
      const known = await send(`FOO /v2/workspaces/current HTTP/1.1\r\nHost: x\r\n\r\n`)
      assert.match(known, /^HTTP\/1\.1 405 /)
      assert.match(known, /\r\nAllow: GET, PATCH\r\n/)
      assert.equal(JSON.parse(known.split('\r\n\r\n')[1]).code, 'method_not_allowed')
      const unknown = await send(`FOO /v2/nothing/here HTTP/1.1\r\nHost: x\r\n\r\n`)
      assert.match(unknown, /^HTTP\/1\.1 404 /)
    })
  })
})
