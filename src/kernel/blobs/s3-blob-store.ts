import { PassThrough, type Readable } from 'node:stream'
import type { S3Client } from '@aws-sdk/client-s3'
import { assertBlobKey, type BlobStat, type BlobStore } from './blobs.js'

export interface S3Settings {
  bucket: string
  region: string
  /** An S3-compatible server (MinIO, Ceph, R2, …); null: AWS's own endpoint for the region. */
  endpoint: string | null
  /** `https://host/bucket/key` instead of `https://bucket.host/key` (most self-hosted servers need it). */
  forcePathStyle: boolean
  /** Explicit credentials; null: the AWS SDK's default chain (AWS_* variables, profiles, instance roles). */
  credentials: { accessKeyId: string; secretAccessKey: string } | null
  /** Put before every key, e.g. `svc/` to share a bucket. */
  prefix: string
}

const DEFAULT_TYPE = 'application/octet-stream'

/**
 * Blobs as objects of one S3 bucket, so API and worker nodes share them without a shared disk. Each
 * operation is one request: a put is one PutObject (S3 replaces an object atomically: readers see the old
 * or the new one, never half, and a retried put is harmless), stat is HeadObject, read is GetObject with a
 * `Range`, delete is DeleteObject (idempotent). The SDK is loaded only when this store is configured.
 */
export class S3BlobStore implements BlobStore {
  private constructor(
    private readonly client: S3Client,
    private readonly sdk: typeof import('@aws-sdk/client-s3'),
    private readonly s: S3Settings,
  ) {}

  static async create(s: S3Settings): Promise<S3BlobStore> {
    const sdk = await import('@aws-sdk/client-s3')
    const client = new sdk.S3Client({
      region: s.region,
      ...(s.endpoint && { endpoint: s.endpoint }),
      forcePathStyle: s.forcePathStyle,
      ...(s.credentials && { credentials: s.credentials }),
      // Checksums only where S3 requires them: S3-compatible servers differ in the newer trailing checksums.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      maxAttempts: 3,
    })
    return new S3BlobStore(client, sdk, s)
  }

  async put(key: string, data: Buffer | Uint8Array, meta: { contentType: string }): Promise<{ size: number }> {
    await this.client.send(new this.sdk.PutObjectCommand({ Bucket: this.s.bucket, Key: this.keyOf(key), Body: data, ContentType: meta.contentType, ContentLength: data.byteLength }))
    return { size: data.byteLength }
  }

  async stat(key: string): Promise<BlobStat | null> {
    try {
      const head = await this.client.send(new this.sdk.HeadObjectCommand({ Bucket: this.s.bucket, Key: this.keyOf(key) }))
      return { size: head.ContentLength ?? 0, contentType: head.ContentType || DEFAULT_TYPE, etag: head.ETag ?? `"${head.LastModified?.getTime() ?? 0}"` }
    } catch (err) {
      if (isMissing(err)) return null
      throw err
    }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    const objectKey = this.keyOf(key)
    if (range && (range.start < 0 || range.end < range.start)) throw new RangeError(`invalid range ${range.start}-${range.end}`)
    // The interface hands back a stream at once; the object's bytes flow into it when S3 answers.
    const out = new PassThrough()
    this.client
      .send(new this.sdk.GetObjectCommand({ Bucket: this.s.bucket, Key: objectKey, ...(range && { Range: `bytes=${range.start}-${range.end}` }) }), { abortSignal: abortOn(out) })
      .then((r) => {
        const body = r.Body as Readable | undefined
        if (!body) return out.end()
        body.on('error', (err) => out.destroy(err))
        body.pipe(out)
      })
      .catch((err: unknown) => out.destroy(isMissing(err) ? Object.assign(new Error(`no blob ${key}`), { code: 'ENOENT' }) : (err as Error)))
    return out
  }

  async delete(key: string): Promise<void> {
    await this.client.send(new this.sdk.DeleteObjectCommand({ Bucket: this.s.bucket, Key: this.keyOf(key) }))
  }

  /** Every key under `prefix` (the store's own prefix left out), for copying between stores. */
  async *keys(prefix = ''): AsyncGenerator<string> {
    let token: string | undefined
    do {
      const page = await this.client.send(new this.sdk.ListObjectsV2Command({ Bucket: this.s.bucket, Prefix: this.s.prefix + prefix, ContinuationToken: token }))
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key.slice(this.s.prefix.length)
      token = page.IsTruncated ? page.NextContinuationToken : undefined
    } while (token)
  }

  close(): void {
    this.client.destroy()
  }

  private keyOf(key: string): string {
    assertBlobKey(key)
    return this.s.prefix + key
  }
}

function isMissing(err: unknown): boolean {
  const e = err as { name?: string; $metadata?: { httpStatusCode?: number } }
  return e?.name === 'NotFound' || e?.name === 'NoSuchKey' || e?.$metadata?.httpStatusCode === 404
}

/** Aborts the request when the reader goes away before the end (a client closed the download). */
function abortOn(stream: PassThrough): AbortSignal {
  const controller = new AbortController()
  stream.once('close', () => {
    if (!stream.readableEnded) controller.abort()
  })
  return controller.signal
}
