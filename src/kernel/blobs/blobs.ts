import { randomBytes } from 'node:crypto'
import { createReadStream } from 'node:fs'
import { mkdir, open, readFile, readdir, rename, rm, stat as fsStat, unlink } from 'node:fs/promises'
import { dirname, join, posix } from 'node:path'
import type { Readable } from 'node:stream'

/**
 * Files the service keeps (recordings, exports, SDK archives, attachments), addressed by key. Modules receive it as `kernel.blobs`.
 *
 * Two implementations, chosen by BLOB_STORE: LocalBlobStore below (a directory) and S3BlobStore
 * (s3-blob-store.ts, any S3-compatible bucket). Keys need no translation: the allowed characters are S3-safe.
 */
export interface BlobStore {
  /** Store `data` under `key`, replacing what was there; readers see the old or the new blob, never half. */
  put(key: string, data: Buffer | Uint8Array, meta: { contentType: string }): Promise<{ size: number }>
  /** null when no blob has this key. `etag` is a strong validator (quoted) that changes on every put. */
  stat(key: string): Promise<BlobStat | null>
  /** The bytes of `key`, or of `range` (both ends inclusive). A missing key makes the stream error. */
  read(key: string, range?: { start: number; end: number }): Readable
  /** Remove `key`; a missing key is not an error. */
  delete(key: string): Promise<void>
  /** Release what the store holds open (an S3 client's sockets); a local directory holds nothing. */
  close?(): void
}

export interface BlobStat {
  size: number
  contentType: string
  etag: string
}

export class InvalidBlobKey extends Error {
  constructor(key: string) {
    super(`invalid blob key ${JSON.stringify(key)}: use [a-z0-9/_.-], segments not starting with '.', no leading or trailing '/'`)
    this.name = 'InvalidBlobKey'
  }
}

// A segment may not start with '.': that rules out '..' and '.', and leaves every dot-name free for the
// store's own files (sidecars, the temp folder), so a key can never collide with them.
const KEY = /^[a-z0-9_-][a-z0-9_.-]*(\/[a-z0-9_-][a-z0-9_.-]*)*$/
const MAX_KEY = 512

export function assertBlobKey(key: string): void {
  if (typeof key !== 'string' || key.length > MAX_KEY || !KEY.test(key) || key.includes('..')) throw new InvalidBlobKey(key)
}

const DEFAULT_TYPE = 'application/octet-stream'
const TEMP = '.tmp'
// Temp files left by a process killed mid-put; older than this they cannot belong to a live put.
const STALE_TEMP_MS = 60 * 60 * 1000

/**
 * Blobs as files under `dir`: key `calls/ab/c.wav` is `dir/calls/ab/c.wav`; its content type is in the
 * sidecar `dir/calls/ab/.c.wav.meta.json` (`{"contentType": …}`), a dot-name no key can take.
 *
 * A put writes both into `dir/.tmp` (same filesystem), fsyncs them, and renames the sidecar then the blob
 * into place, then fsyncs the folder: a SIGKILL leaves at worst a temp file (swept after an hour) or, when
 * replacing, the new sidecar beside the old blob until the retry rewrites it. The blob file decides
 * existence; a blob without a sidecar reads as application/octet-stream.
 */
export class LocalBlobStore implements BlobStore {
  private swept = false

  constructor(readonly dir: string) {}

  async put(key: string, data: Buffer | Uint8Array, meta: { contentType: string }): Promise<{ size: number }> {
    const file = this.pathOf(key)
    const tempDir = join(this.dir, TEMP)
    await Promise.all([mkdir(dirname(file), { recursive: true }), mkdir(tempDir, { recursive: true })])
    if (!this.swept) {
      this.swept = true
      await this.sweepTemp(tempDir)
    }
    const id = randomBytes(8).toString('hex')
    const tempBlob = join(tempDir, `${id}.blob`)
    const tempMeta = join(tempDir, `${id}.meta`)
    try {
      await Promise.all([writeSynced(tempBlob, data), writeSynced(tempMeta, JSON.stringify({ contentType: meta.contentType }))])
      await rename(tempMeta, sidecarOf(file))
      await rename(tempBlob, file)
    } catch (err) {
      await Promise.all([rm(tempBlob, { force: true }), rm(tempMeta, { force: true })])
      throw err
    }
    await syncDir(dirname(file))
    return { size: data.byteLength }
  }

  async stat(key: string): Promise<BlobStat | null> {
    const file = this.pathOf(key)
    let s
    try {
      s = await fsStat(file)
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code === 'ENOENT') return null
      throw err
    }
    if (!s.isFile()) return null
    let contentType = DEFAULT_TYPE
    try {
      const parsed = JSON.parse(await readFile(sidecarOf(file), 'utf8')) as { contentType?: unknown }
      if (typeof parsed.contentType === 'string' && parsed.contentType) contentType = parsed.contentType
    } catch {
      // No (or a torn) sidecar: the bytes are still served, typed generically.
    }
    // Every put renames a new file into place, so inode + mtime + size change with the content.
    const etag = `"${s.size.toString(16)}-${Math.floor(s.mtimeMs).toString(16)}-${s.ino.toString(16)}"`
    return { size: s.size, contentType, etag }
  }

  read(key: string, range?: { start: number; end: number }): Readable {
    const file = this.pathOf(key)
    if (range && (range.start < 0 || range.end < range.start)) throw new RangeError(`invalid range ${range.start}-${range.end}`)
    return createReadStream(file, range ? { start: range.start, end: range.end } : {})
  }

  async delete(key: string): Promise<void> {
    const file = this.pathOf(key)
    await unlink(file).catch(ignoreMissing)
    await unlink(sidecarOf(file)).catch(ignoreMissing)
  }

  /** Every key in the directory (dot-names are the store's own: sidecars, temp files). */
  async *keys(prefix = ''): AsyncGenerator<string> {
    const walk = async function* (dir: string, key: string): AsyncGenerator<string> {
      const entries = await readdir(dir, { withFileTypes: true }).catch(() => [])
      for (const e of entries.sort((a, b) => (a.name < b.name ? -1 : 1))) {
        if (e.name.startsWith('.')) continue
        const k = key ? `${key}/${e.name}` : e.name
        if (e.isDirectory()) yield* walk(join(dir, e.name), k)
        else if (e.isFile() && k.startsWith(prefix)) yield k
      }
    }
    yield* walk(this.dir, '')
  }

  private pathOf(key: string): string {
    assertBlobKey(key)
    return join(this.dir, ...key.split('/'))
  }

  private async sweepTemp(tempDir: string): Promise<void> {
    const now = Date.now()
    for (const name of await readdir(tempDir).catch(() => [] as string[])) {
      const p = join(tempDir, name)
      const s = await fsStat(p).catch(() => null)
      if (s && now - s.mtimeMs > STALE_TEMP_MS) await rm(p, { force: true })
    }
  }
}

function sidecarOf(file: string): string {
  return join(dirname(file), `.${posix.basename(file)}.meta.json`)
}

async function writeSynced(path: string, data: string | Uint8Array): Promise<void> {
  const handle = await open(path, 'wx')
  try {
    await handle.writeFile(data)
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Makes the renames durable (a crash after put returned keeps the blob). Not every platform allows it. */
async function syncDir(dir: string): Promise<void> {
  let handle
  try {
    handle = await open(dir, 'r')
    await handle.sync()
  } catch {
    // Windows cannot open a directory; the rename is still atomic there.
  } finally {
    await handle?.close()
  }
}

function ignoreMissing(err: NodeJS.ErrnoException): void {
  if (err.code !== 'ENOENT') throw err
}
