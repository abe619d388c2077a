// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import Fastify, { type FastifyInstance } from 'fastify'
import { LocalBlobStore } from '../blobs/blobs.js'
import { sendBlob } from './send-blob.js'
import { sendProblem, toAppError } from './problem.js'

// A throwaway Fastify app with one download route over a real store in a temp folder.
const dir = mkdtempSync(join(tmpdir(), 'send-blob-'))
const store = new LocalBlobStore(dir)
const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 256))
let app: FastifyInstance

before(async () => {
  await store.put('rec/one.wav', body, { contentType: 'audio/wav' })
  await store.put('rec/empty', Buffer.alloc(0), { contentType: 'text/plain' })
  app = Fastify()
  app.setErrorHandler((err, request, reply) => sendProblem(request, reply, toAppError(err)))
  app.get<{ Params: { name: string }; Querystring: { filename?: string } }>('/files/:name', async (request, reply) => {
    const { name } = request.params
    return sendBlob(request, reply, store, `rec/${name}`, { contentType: name.endsWith('.wav') ? 'audio/wav' : undefined, filename: request.query.filename })
  })
  await app.ready()
})
after(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

const get = (headers: Record<string, string> = {}, url = '/files/one.wav') => app.inject({ method: 'GET', url, headers })

describe('sendBlob', () => {
  it('answers the whole blob with its validators and disposition', async () => {
    const res = await get({}, '/files/one.wav?filename=call_1.wav')
    assert.equal(res.statusCode, 200)
    assert.deepEqual(res.rawPayload, body)
    assert.equal(res.headers['content-type'], 'audio/wav')
    assert.equal(res.headers['content-length'], '1000')
    assert.equal(res.headers['accept-ranges'], 'bytes')
    assert.equal(res.headers['content-disposition'], 'inline; filename="call_1.wav"')
    assert.equal(res.headers.etag, (await store.stat('rec/one.wav'))?.etag)
  })

  it('answers one range with 206 and Content-Range (closed, open-ended and suffix)', async () => {
    for (const [range, start, end] of [
      ['bytes=0-99', 0, 99],
      ['bytes=990-', 990, 999],
      ['bytes=-10', 990, 999],
      ['bytes=500-5000', 500, 999],
      ['bytes=0-9,5-20', 0, 20],
    ] as const) {
      const res = await get({ range })
      assert.equal(res.statusCode, 206, range)
      assert.equal(res.headers['content-range'], `bytes ${start}-${end}/1000`)
      assert.equal(res.headers['content-length'], String(end - start + 1))
      assert.deepEqual(res.rawPayload, body.subarray(start, end + 1))
      assert.equal(res.headers['content-type'], 'audio/wav')
    }
  })

  it('answers an unsatisfiable range with a 416 problem and Content-Range: bytes */size', async () => {
    const res = await get({ range: 'bytes=1000-1200', 'x-request-id': 'req_test_416' })
    assert.equal(res.statusCode, 416)
    assert.equal(res.headers['content-range'], 'bytes */1000')
    assert.match(String(res.headers['content-type']), /^application\/problem\+json/)
    assert.equal(res.headers['content-disposition'], undefined)
    const problem = res.json()
    assert.equal(problem.status, 416)
    assert.equal(problem.code, 'range_not_satisfiable')
    assert.equal(typeof problem.request_id, 'string')
    // RFC 9110 §14.2: an invalid range-set (last before first) is answered 416 like an unsatisfiable one.
    assert.equal((await get({ range: 'bytes=9-2' })).statusCode, 416)
    // A zero-length suffix selects nothing.
    assert.equal((await get({ range: 'bytes=-0' })).statusCode, 416)
  })

  it('answers a suffix longer than the file with the whole file (RFC 9110 §14.1.3), not 416', async () => {
    for (const range of ['bytes=-1000', 'bytes=-1001', 'bytes=-5000000']) {
      const res = await get({ range })
      assert.equal(res.statusCode, 206, range)
      assert.equal(res.headers['content-range'], 'bytes 0-999/1000', range)
      assert.equal(res.headers['content-length'], '1000')
      assert.deepEqual(res.rawPayload, body)
    }
    const empty = await get({ range: 'bytes=-10' }, '/files/empty')
    assert.equal(empty.statusCode, 200)
    assert.equal(empty.rawPayload.length, 0)
  })

  it('answers the whole blob for several disjoint ranges, a malformed Range or another unit', async () => {
    for (const range of ['bytes=0-9,100-109', 'bytes=abc', 'items=0-5']) {
      const res = await get({ range })
      assert.equal(res.statusCode, 200, range)
      assert.equal(res.rawPayload.length, 1000)
      assert.equal(res.headers['content-range'], undefined)
    }
  })

  it('honours If-Range (the ETag still matching) and If-None-Match', async () => {
    const { etag } = (await store.stat('rec/one.wav'))!
    assert.equal((await get({ range: 'bytes=0-9', 'if-range': etag })).statusCode, 206)
    assert.equal((await get({ range: 'bytes=0-9', 'if-range': '"stale"' })).statusCode, 200)
    assert.equal((await get({ range: 'bytes=0-9', 'if-range': 'Tue, 01 Jan 2030 00:00:00 GMT' })).statusCode, 200)
    const notModified = await get({ 'if-none-match': `"other", ${etag}` })
    assert.equal(notModified.statusCode, 304)
    assert.equal(notModified.rawPayload.length, 0)
    assert.equal(notModified.headers.etag, etag)
  })

  it('answers HEAD with the headers only', async () => {
    const res = await app.inject({ method: 'HEAD', url: '/files/one.wav', headers: { range: 'bytes=10-19' } })
    assert.equal(res.statusCode, 206)
    assert.equal(res.headers['content-length'], '10')
    assert.equal(res.rawPayload.length, 0)
  })

  it('serves an empty blob, types by the stored content type and encodes a non-ASCII filename', async () => {
    const res = await get({}, `/files/empty?filename=${encodeURIComponent('appel été "1".txt')}`)
    assert.equal(res.statusCode, 200)
    assert.equal(res.rawPayload.length, 0)
    assert.equal(res.headers['content-length'], '0')
    assert.match(String(res.headers['content-type']), /^text\/plain/)
    assert.equal(res.headers['content-disposition'], `inline; filename="appel _t_ _1_.txt"; filename*=UTF-8''appel%20%C3%A9t%C3%A9%20%221%22.txt`)
    assert.equal((await get({ range: 'bytes=0-' }, '/files/empty')).statusCode, 416)
  })

  it('answers a missing blob with a 404 problem', async () => {
    const res = await get({}, '/files/gone.wav')
    assert.equal(res.statusCode, 404)
    assert.equal(res.json().code, 'resource_not_found')
  })
})
