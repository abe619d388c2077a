// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Readable } from 'node:stream'
import { after, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import { fileURLToPath } from 'node:url'
import { InvalidBlobKey, LocalBlobStore, assertBlobKey } from './blobs.js'

const dirs: string[] = []
function tempStore(): LocalBlobStore {
  const dir = mkdtempSync(join(tmpdir(), 'blobs-'))
  dirs.push(dir)
  return new LocalBlobStore(dir)
}
after(() => {
  for (const d of dirs) rmSync(d, { recursive: true, force: true })
})

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = []
  for await (const c of stream) chunks.push(c as Buffer)
  return Buffer.concat(chunks)
}

describe('LocalBlobStore', () => {
  it('stores, describes, reads (whole and ranged) and deletes a blob', async () => {
    const store = tempStore()
    const data = Buffer.from('0123456789abcdef')
    assert.deepEqual(await store.put('calls/ws_1/call_1.wav', data, { contentType: 'audio/wav' }), { size: 16 })
    const stat = await store.stat('calls/ws_1/call_1.wav')
    assert.equal(stat?.size, 16)
    assert.equal(stat?.contentType, 'audio/wav')
    assert.match(stat!.etag, /^"[0-9a-f-]+"$/)
    assert.deepEqual(await readAll(store.read('calls/ws_1/call_1.wav')), data)
    assert.equal((await readAll(store.read('calls/ws_1/call_1.wav', { start: 2, end: 5 }))).toString(), '2345')
    // The sidecar is a dot-name beside the blob; nothing else is left behind.
    assert.deepEqual(readdirSync(join(store.dir, 'calls/ws_1')).sort(), ['.call_1.wav.meta.json', 'call_1.wav'])
    assert.deepEqual(readdirSync(join(store.dir, '.tmp')), [])
    await store.delete('calls/ws_1/call_1.wav')
    assert.equal(await store.stat('calls/ws_1/call_1.wav'), null)
    assert.deepEqual(readdirSync(join(store.dir, 'calls/ws_1')), [])
    await store.delete('calls/ws_1/call_1.wav') // a missing key is fine
  })

  it('a put of the same key replaces it, with a new ETag', async () => {
    const store = tempStore()
    await store.put('a/b', Buffer.from('first version'), { contentType: 'text/plain' })
    const before = await store.stat('a/b')
    await store.put('a/b', new Uint8Array([1, 2, 3]), { contentType: 'application/octet-stream' })
    const now = await store.stat('a/b')
    assert.equal(now?.size, 3)
    assert.equal(now?.contentType, 'application/octet-stream')
    assert.notEqual(now?.etag, before?.etag)
    assert.deepEqual([...(await readAll(store.read('a/b')))], [1, 2, 3])
  })

  it('an unknown key has no stat, and reading it errors', async () => {
    const store = tempStore()
    assert.equal(await store.stat('nope'), null)
    await assert.rejects(readAll(store.read('nope')), { code: 'ENOENT' })
  })

  it('rejects keys outside [a-z0-9/_.-], with .. , a leading / or dot-segments', async () => {
    for (const bad of ['', '/abs', 'a/../b', '..', 'a/..', 'a//b', 'a/', 'A.wav', 'a b', 'a\\b', '.tmp/x', 'a/.hidden', 'é', 'a..b', 'x'.repeat(513)]) {
      assert.throws(() => assertBlobKey(bad), InvalidBlobKey, bad)
    }
    for (const good of ['a', 'calls/ws_01/call_9.wav', 'x-y.z/0_1']) assertBlobKey(good)
    const store = tempStore()
    await assert.rejects(store.put('../escape', Buffer.from('x'), { contentType: 'text/plain' }), InvalidBlobKey)
    await assert.rejects(store.stat('/etc/passwd'), InvalidBlobKey)
    assert.throws(() => store.read('a/../../b'), InvalidBlobKey)
    await assert.rejects(store.delete('..'), InvalidBlobKey)
  })

  it('a blob whose sidecar is missing reads as application/octet-stream', async () => {
    const store = tempStore()
    await store.put('k', Buffer.from('x'), { contentType: 'audio/wav' })
    rmSync(join(store.dir, '.k.meta.json'))
    assert.equal((await store.stat('k'))?.contentType, 'application/octet-stream')
  })

  it('a process killed mid-put never leaves half a blob under the key', async () => {
    const store = tempStore()
    const module = fileURLToPath(new URL('./blobs.ts', import.meta.url))
    // Rewrites one key over and over with 4 MiB of one byte value, alternating; killed at a random moment.
    const script = `
      import { LocalBlobStore } from ${JSON.stringify(module)}
      const store = new LocalBlobStore(${JSON.stringify(store.dir)})
      process.stdout.write('ready\\n')
      for (let i = 0; ; i++) await store.put('rec/one.wav', Buffer.alloc(4 << 20, i % 2 ? 0x62 : 0x61), { contentType: 'audio/wav' })
    `
    for (let round = 0; round < 3; round++) {
      const child = spawn(process.execPath, ['--import', 'tsx', '--input-type=module', '-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
      await new Promise<void>((resolve) => child.stdout.once('data', () => resolve()))
      await sleep(150 + Math.random() * 250)
      child.kill('SIGKILL')
      await new Promise((resolve) => child.once('close', resolve))
      const file = join(store.dir, 'rec/one.wav')
      if (!existsSync(file)) continue
      const bytes = readFileSync(file)
      assert.equal(bytes.length, 4 << 20)
      assert.ok(
        bytes.every((b) => b === bytes[0]),
        'the blob is one whole version',
      )
      assert.equal((await store.stat('rec/one.wav'))?.contentType, 'audio/wav')
    }
    // Temp files of the killed puts are swept by a later process once they are an hour old, not before.
    await store.put('rec/other', Buffer.from('x'), { contentType: 'text/plain' })
    assert.equal((await store.stat('rec/one.wav'))?.size, 4 << 20)
  })
})
