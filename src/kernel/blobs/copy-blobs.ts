import type { Readable } from 'node:stream'
import type { BlobStore } from './blobs.js'

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

/**
 * Copies every blob of `from` into `to` with its content type (moving from a local directory to a bucket,
 * `svc blobs copy`). Run again, it copies only what `to` lacks or holds at another size, so an interrupted
 * copy resumes. One blob in memory at a time: the store's blobs are bounded by the limits of the modules
 * that write them (recordings, exports, archives).
 */
export async function copyBlobs(from: BlobStore & { keys(prefix?: string): AsyncGenerator<string> }, to: BlobStore): Promise<{ copied: number; skipped: number; bytes: number }> {
  let copied = 0
  let skipped = 0
  let bytes = 0
  for await (const key of from.keys()) {
    const source = await from.stat(key)
    if (!source) continue
    const there = await to.stat(key)
    if (there && there.size === source.size) {
      skipped++
      continue
    }
    const data = await bytesOf(from.read(key))
    await to.put(key, data, { contentType: source.contentType })
    copied++
    bytes += data.byteLength
  }
  return { copied, skipped, bytes }
}
