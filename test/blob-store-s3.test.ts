import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { HeadObjectCommand, ListObjectsV2Command, S3Client } from '@aws-sdk/client-s3'
import { LocalBlobStore } from '../src/kernel/blobs/blobs.js'
import { startS3 } from '../src/kernel/blobs/s3-blob-store.testkit.js'
import { assertProblem, createTestApp, createTestDatabase, get, ok, post, type TestApp } from './helpers.js'
import { svc } from './spawn.js'

// The whole service on BLOB_STORE=s3: a data-subject export is built into the bucket by the job worker,
// downloaded whole and by range through the API, and gone from the bucket after the subject's erasure.
describe('the service with its files in an S3-compatible bucket', () => {
  let s3: Awaited<ReturnType<typeof startS3>>
  let h: TestApp
  let client: S3Client
  const objects = async () => ((await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents ?? []).map((o) => o.Key!)
  before(async () => {
    s3 = await startS3()
    h = await createTestApp({ env: s3.env })
    client = new S3Client({ endpoint: s3.endpoint, region: 'us-east-1', forcePathStyle: true, credentials: { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' } })
  })
  after(async () => {
    client.destroy()
    await h.close()
    await s3.close()
  })

  it('exports into the bucket, serves ranges from it, and erasure deletes the object', async () => {
    const subject = { email: 'ada@example.com' }
    await ok(post(h, '/inbox/conversations', { contact: { name: 'Ada', ...subject }, message: { content: 'Hello, this is Ada.' } }), 201)
    const d = await ok(post(h, '/compliance/dsar', { type: 'access', subject }), 201)
    await h.drainJobs()
    await ok(post(h, `/compliance/dsar/${d.id}/export`), 202)
    await h.drainJobs()
    const ready = await ok(get(h, `/compliance/dsar/${d.id}`))
    assert.equal(ready.export.status, 'ready')
    const stored = (await objects()).filter((k) => k.endsWith('.zip'))
    assert.equal(stored.length, 1, 'the archive is an object of the bucket')

    const path = new URL(ready.export.url).pathname
    const whole = await h.http().inject({ method: 'GET', url: path })
    assert.equal(whole.statusCode, 200)
    assert.equal(createHash('sha256').update(whole.rawPayload).digest('hex'), ready.export.sha256)
    const part = await h.http().inject({ method: 'GET', url: path, headers: { range: 'bytes=0-9' } })
    assert.equal(part.statusCode, 206)
    assert.equal(part.headers['content-range'], `bytes 0-9/${whole.rawPayload.length}`)
    assert.deepEqual(part.rawPayload, whole.rawPayload.subarray(0, 10))
    assert.equal(part.rawPayload.subarray(0, 2).toString(), 'PK', 'a ZIP archive')

    const erase = await ok(post(h, '/compliance/dsar', { type: 'erasure', subject }), 201)
    await h.drainJobs()
    assert.equal((await ok(get(h, `/compliance/dsar/${erase.id}`))).status, 'completed')
    assert.deepEqual(
      (await objects()).filter((k) => k.endsWith('.zip')),
      [],
      'the export is deleted from the bucket',
    )
    assertProblem(await h.http().inject({ method: 'GET', url: path }), 410, 'export_deleted')
  })

  it('svc blobs copy moves a local blob directory into the bucket with content types, and resumes', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'svc-old-blobs-'))
    const db = await createTestDatabase()
    try {
      const local = new LocalBlobStore(dir)
      await local.put('calls/ws_1/call_1.wav', Buffer.from('RIFF....WAVE'), { contentType: 'audio/wav' })
      await local.put('exports/ws_1/dsar_1.zip', Buffer.from('PK archive'), { contentType: 'application/zip' })
      const env = { ...db.env, ...s3.env, S3_PREFIX: 'moved/', LOG_LEVEL: 'silent' }
      assert.deepEqual(JSON.parse(await svc(['blobs', 'copy', '--from-dir', dir, '--json'], env)), { copied: 2, skipped: 0, bytes: 22 })
      const head = await client.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: 'moved/calls/ws_1/call_1.wav' }))
      assert.deepEqual([head.ContentType, head.ContentLength], ['audio/wav', 12])
      await local.put('calls/ws_1/call_2.wav', Buffer.from('RIFF'), { contentType: 'audio/wav' })
      assert.deepEqual(JSON.parse(await svc(['blobs', 'copy', '--from-dir', dir, '--json'], env)), { copied: 1, skipped: 2, bytes: 4 })
    } finally {
      await db.drop()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
