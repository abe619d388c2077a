import assert from 'node:assert/strict'
import type { Readable } from 'node:stream'
import { after, before, describe, it } from 'node:test'
import { loadConfig } from '../../config.js'
import { ConfigError } from '../../config-env.js'
import { InvalidBlobKey } from './blobs.js'
import { S3BlobStore } from './s3-blob-store.js'
import { startS3 } from './s3-blob-store.testkit.js'

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

describe('S3BlobStore against a local S3-compatible server', () => {
  let s3: Awaited<ReturnType<typeof startS3>>
  let store: S3BlobStore
  let other: S3BlobStore
  before(async () => {
    s3 = await startS3()
    const settings = { bucket: s3.bucket, region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' }, prefix: 'svc/' }
    store = await S3BlobStore.create(settings)
    other = await S3BlobStore.create({ ...settings, prefix: 'other/' })
  })
  after(async () => {
    store.close()
    other.close()
    await s3.close()
  })

  it('stores, describes, reads (whole and ranged) and deletes an object', async () => {
    const data = Buffer.from('0123456789abcdef')
    assert.deepEqual(await store.put('calls/ws_1/call_1.wav', data, { contentType: 'audio/wav' }), { size: 16 })
    const stat = await store.stat('calls/ws_1/call_1.wav')
    assert.deepEqual([stat?.size, stat?.contentType], [16, 'audio/wav'])
    assert.match(stat!.etag, /^"[0-9a-f]+"$/)
    assert.deepEqual(await readAll(store.read('calls/ws_1/call_1.wav')), data)
    assert.equal((await readAll(store.read('calls/ws_1/call_1.wav', { start: 2, end: 5 }))).toString(), '2345')
    assert.equal((await readAll(store.read('calls/ws_1/call_1.wav', { start: 15, end: 15 }))).toString(), 'f')
    await store.delete('calls/ws_1/call_1.wav')
    assert.equal(await store.stat('calls/ws_1/call_1.wav'), null)
    await store.delete('calls/ws_1/call_1.wav') // a missing key is not an error
  })

  it('a put replaces the object and its validator; the prefix keeps stores sharing a bucket apart', async () => {
    await store.put('exports/a.zip', Buffer.from('one'), { contentType: 'application/zip' })
    const first = await store.stat('exports/a.zip')
    await store.put('exports/a.zip', Buffer.from('two!'), { contentType: 'application/zip' })
    const second = await store.stat('exports/a.zip')
    assert.equal(second?.size, 4)
    assert.notEqual(second?.etag, first?.etag)
    assert.equal(await other.stat('exports/a.zip'), null)
    await other.put('exports/b.zip', Buffer.from('b'), { contentType: 'application/zip' })
    const keys: string[] = []
    for await (const k of store.keys('exports/')) keys.push(k)
    assert.deepEqual(keys, ['exports/a.zip'])
  })

  it('reading a missing key errors the stream (ENOENT); bad keys and ranges are refused before any request', async () => {
    await assert.rejects(readAll(store.read('nothing/here.bin')), (err: NodeJS.ErrnoException) => err.code === 'ENOENT')
    assert.throws(() => store.read('../etc/passwd'), InvalidBlobKey)
    await assert.rejects(store.put('Upper/Case', Buffer.from('x'), { contentType: 'text/plain' }), InvalidBlobKey)
    await store.put('r/x.bin', Buffer.from('abc'), { contentType: 'application/octet-stream' })
    assert.throws(() => store.read('r/x.bin', { start: 2, end: 1 }), RangeError)
  })

  it('BLOB_STORE=s3 needs a bucket, and credentials as a pair', () => {
    assert.throws(
      () => loadConfig({ BLOB_STORE: 's3' }),
      (e: unknown) => e instanceof ConfigError && /S3_BUCKET/.test(e.message),
    )
    assert.throws(
      () => loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ACCESS_KEY_ID: 'k' }),
      (e: unknown) => e instanceof ConfigError && /S3_SECRET_ACCESS_KEY/.test(e.message),
    )
    const c = loadConfig({ BLOB_STORE: 's3', S3_BUCKET: 'b', S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'on' })
    assert.deepEqual(c.blobs.s3, { bucket: 'b', region: 'us-east-1', endpoint: 'http://127.0.0.1:9000', forcePathStyle: true, credentials: null, prefix: '' })
    assert.equal(loadConfig({}).blobs.s3, null)
  })
})
