// Shared steps for the SDK generation tests (not a test file itself): the app with the part module on a
// clock the tests move, a generation run to its end, its archive downloaded and unpacked.
import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import JSZip from 'jszip'
import { ManualClock } from '../../../kernel/clock.js'
import { createTestApp, ok, type TestApp } from '../../../../test/helpers.js'
import type { CreateSdkGenerationBodyT } from './sdk-generations.schemas.js'

export interface SdkApp extends TestApp {
  clock: ManualClock
}

/** The app on a clock the tests move. */
export async function sdkApp(): Promise<SdkApp> {
  const clock = new ManualClock(Date.parse('2026-12-01T09:00:00Z'))
  const h = await createTestApp({ clock })
  return Object.assign(h, { clock })
}

/**
 * Creates a generation (through the API, or with `document` through the service: a generation of another
 * server's document), runs its job, and returns it as workspace A's list shows it then.
 */
export async function generated(h: TestApp, body: CreateSdkGenerationBodyT, document?: () => Promise<string>): Promise<any> {
  const principal = { workspaceId: h.a.workspaceId, mode: 'live' as const, keyId: 'key_test', scopes: ['admin'] }
  const made = document ? (await h.app.services.developerSdk.create(principal, body, document)).body : await ok(h.request({ method: 'POST', url: '/v2/sdk-generations', payload: body }), 202)
  await h.drainJobs()
  const list = await ok(h.request({ method: 'GET', url: '/v2/sdk-generations?limit=100' }))
  return list.data.find((g: any) => g.id === made.id)
}

/** GET on a download link (outside /v2: no key). */
export const download = (h: TestApp, url: string) => h.http().inject({ method: 'GET', url: new URL(url).pathname })

/** Downloads a succeeded generation's archive, checks its size and SHA-256, and unpacks it into a temp folder. */
export async function unpacked(h: TestApp, g: any): Promise<{ dir: string; zip: JSZip; bytes: Buffer }> {
  assert.equal(g.status, 'succeeded', JSON.stringify(g))
  const res = await download(h, g.archive.url)
  assert.equal(res.statusCode, 200, res.body)
  assert.equal(res.headers['content-type'], 'application/zip')
  assert.match(String(res.headers['content-disposition']), new RegExp(g.archive.filename.replace(/\./g, '\\.')))
  const bytes = res.rawPayload
  assert.equal(bytes.length, g.archive.size_bytes)
  assert.equal(createHash('sha256').update(bytes).digest('hex'), g.archive.sha256)
  const zip = await JSZip.loadAsync(bytes)
  const dir = mkdtempSync(join(tmpdir(), 'sdkgen-'))
  for (const entry of Object.values(zip.files)) {
    if (entry.dir) continue
    assert.ok(!entry.name.split('/').includes('..'), entry.name)
    const target = join(dir, entry.name)
    mkdirSync(dirname(target), { recursive: true })
    writeFileSync(target, await entry.async('nodebuffer'))
    if (entry.unixPermissions) chmodSync(target, Number(entry.unixPermissions) & 0o777)
  }
  return { dir, zip, bytes }
}
