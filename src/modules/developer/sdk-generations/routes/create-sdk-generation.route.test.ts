import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { stringify } from 'safe-stable-stringify'
import { assertProblem, events, json, ok } from '../../../../../test/helpers.js'
import { generatedRoots, readRuntime } from '../sdk-archive.js'
import { LANGUAGES, readModel } from '../../../../../lib/sdk-generator/languages.js'
import { findSdkRoot } from '../sdk-folder.js'
import { applyVersionConstants } from '../sdk-manifest.js'
import { download, generated, sdkApp, unpacked, type SdkApp } from '../sdk-generations.testkit.js'

const create = (h: SdkApp, payload: object, key?: string) => h.request({ method: 'POST', url: '/v2/sdk-generations', payload, ...(key ? { key } : {}) })

describe('SDK generations: createSdkGeneration, listSdkGenerations and the download link', () => {
  let h: SdkApp
  let doc: string
  before(async () => {
    h = await sdkApp()
    doc = (await h.request({ method: 'GET', url: '/v2/openapi.json', key: null })).body
  })
  after(() => h.close())

  it('answers 202 queued with the SHA-256 of the document this server serves, then the job packs the client', async () => {
    const made = await ok(create(h, { language: 'python', package_name: 'acme-svc', version: '3.1.0' }), 202)
    assert.match(made.id, /^sdkgen_[0-9A-Z]{26}$/)
    assert.equal(made.object, 'sdk_generation')
    assert.equal(made.status, 'queued')
    assert.equal(made.archive, null)
    // Of its canonical JSON (keys sorted, no whitespace), as an OpenAPI snapshot's sha256.
    assert.equal(
      made.document_sha256,
      createHash('sha256')
        .update(stringify(JSON.parse(doc))!)
        .digest('hex'),
    )
    assert.equal(made.api_version, JSON.parse(doc).info.version)
    assert.deepEqual([made.language, made.package_name, made.version], ['python', 'acme-svc', '3.1.0'])

    await h.drainJobs()
    const list = await ok(h.request({ method: 'GET', url: '/v2/sdk-generations' }))
    const g = list.data.find((x: any) => x.id === made.id)
    assert.equal(g.status, 'succeeded', g.error)
    assert.equal(g.document_sha256, made.document_sha256)
    assert.ok(g.operations > 50)
    assert.equal(g.archive.format, 'zip')
    assert.equal(g.archive.filename, 'acme-svc-3.1.0.zip')
    assert.equal(Date.parse(g.archive.expires_at) - Date.parse(g.completed_at), 24 * 3600_000)
    assert.match(g.archive.url, /\/downloads\/sdk\/[A-Za-z0-9_-]{40,}$/)
    const event = (await events(h, 'sdk_generation.succeeded')).find((e) => e.id === made.id)
    assert.ok(event && event.archive.url === null, 'events never carry the link')
    const stored = await h.app.kernel.db.selectFrom('developer_sdk_generations').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow()
    assert.equal(stored.document_key, null, 'the document was kept for the job only')
  })

  it('the archive holds every generated file as the generator writes it, the whole runtime, and the manifest renamed', async () => {
    const g = await generated(h, { language: 'python', package_name: 'acme-svc', version: '3.1.0' })
    const { dir, zip } = await unpacked(h, g)
    try {
      const root = join(dir, 'acme-svc-3.1.0')
      const sdk = findSdkRoot()!
      // As the generator writes them, with the package version as the client's own version constant.
      const files = applyVersionConstants(LANGUAGES.python(readModel(JSON.parse(doc))), '3.1.0')
      assert.ok(files.size > 5)
      for (const [path, text] of files) assert.equal(readFileSync(join(root, path), 'utf8'), text, path)
      const roots = [...generatedRoots(files.keys())]
      for (const [path, file] of readRuntime(join(sdk, 'python'))) {
        if (files.has(path) || roots.some((r) => path.startsWith(r)) || path === 'pyproject.toml') continue
        assert.ok(readFileSync(join(root, path)).equals(file.data), path)
      }
      const names = Object.keys(zip.files)
      assert.ok(names.every((n) => n.startsWith('acme-svc-3.1.0/')))
      assert.ok(!names.some((n) => n.endsWith('.test.ts') || n.includes('__pycache__') || n.endsWith('.pyc')), 'no repository driver, no caches')
      const provenance = JSON.parse(readFileSync(join(root, 'GENERATION.json'), 'utf8'))
      assert.equal(provenance.document_sha256, g.document_sha256)
      assert.equal(provenance.manifest, 'pyproject.toml')
      assert.equal(g.archive.files, provenance.files.length + 1)
      const pyproject = readFileSync(join(root, 'pyproject.toml'), 'utf8')
      assert.match(pyproject, /^\[project\]\nname = "acme-svc"\nversion = "3.1.0"$/m)
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  it('defaults to the client’s own package name and version', async () => {
    const a = await generated(h, { language: 'node' })
    const pkg = JSON.parse(readFileSync(join(findSdkRoot()!, 'node', 'package.json'), 'utf8'))
    assert.deepEqual([a.package_name, a.version], [pkg.name, pkg.version])
    assert.equal(a.archive.filename, `${pkg.name.replace(/^@/, '').replace(/\//g, '-')}-${pkg.version}.zip`)
    const { dir } = await unpacked(h, a)
    rmSync(dir, { recursive: true, force: true })
  })

  it('refuses names and versions the language’s registry would refuse, and unknown languages', async () => {
    const bad = async (body: object, pointer: string) => {
      const r = await create(h, body)
      assertProblem(r, 422, 'validation_failed')
      assert.ok(
        json(r).errors.some((e: any) => e.pointer === pointer),
        r.body,
      )
    }
    await bad({ language: 'php', package_name: 'Acme' }, '/body/package_name')
    await bad({ language: 'node', package_name: 'Has Spaces' }, '/body/package_name')
    await bad({ language: 'python', version: '1.0.0-beta.1' }, '/body/version')
    await bad({ language: 'node', version: 'v2' }, '/body/version')
    await bad({ language: 'go' }, '/body/language')
    await bad({ language: 'node', extra: true }, '/body/extra')
  })

  it('the link: 404 for an unknown token, 409 while queued, and 410 once 24 hours passed (the archive is then purged)', async () => {
    assertProblem(await h.http().inject({ method: 'GET', url: '/downloads/sdk/' + 'x'.repeat(43) }), 404)
    const queued = await ok(create(h, { language: 'ruby' }), 202)
    const row = await h.app.kernel.db.selectFrom('developer_sdk_generations').selectAll().where('id', '=', queued.id).executeTakeFirstOrThrow()
    const link = h.app.services.developerSdk.link(row)
    const early = await download(h, link)
    assertProblem(early, 409, 'sdk_archive_not_ready')
    assert.equal(early.headers['retry-after'], '5')
    await h.drainJobs()
    assert.equal((await download(h, link)).statusCode, 200)
    const ranged = await h.http().inject({ method: 'GET', url: new URL(link).pathname, headers: { range: 'bytes=0-3' } })
    assert.equal(ranged.statusCode, 206)
    assert.equal(ranged.rawPayload.toString('latin1'), 'PK\u0003\u0004')

    h.clock.advance(24 * 3600_000 + 1000)
    assertProblem(await download(h, link), 410, 'sdk_download_expired')
    const listed = (await ok(h.request({ method: 'GET', url: '/v2/sdk-generations?language=ruby' }))).data.find((g: any) => g.id === queued.id)
    assert.equal(listed.archive.url, null)
    const archiveKey = (await h.app.kernel.db.selectFrom('developer_sdk_generations').select('archive_key').where('id', '=', queued.id).executeTakeFirstOrThrow()).archive_key!
    assert.ok(await h.app.kernel.blobs.stat(archiveKey))
    assert.ok((await h.app.services.developerSdk.purgeExpired()) >= 1)
    assert.equal(await h.app.kernel.blobs.stat(archiveKey), null)
    assertProblem(await download(h, link), 410, 'sdk_download_expired')
  })

  it('a generation whose input is gone fails with a readable reason, and says so in an event', async () => {
    const made = await ok(create(h, { language: 'php' }), 202)
    const row = await h.app.kernel.db.selectFrom('developer_sdk_generations').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow()
    await h.app.kernel.blobs.delete(row.document_key!)
    await h.drainJobs()
    const g = (await ok(h.request({ method: 'GET', url: '/v2/sdk-generations?status=failed' }))).data.find((x: any) => x.id === made.id)
    assert.equal(g.status, 'failed')
    assert.match(g.error, /document is gone/)
    assert.equal(g.archive, null)
    assert.ok((await events(h, 'sdk_generation.failed')).some((e) => e.id === made.id))
    const link = h.app.services.developerSdk.link(row)
    assertProblem(await download(h, link), 409, 'sdk_archive_not_ready')
  })

  it('caps generations in progress per workspace', async () => {
    for (let i = 0; i < 5; i++) await ok(create(h, { language: 'node' }), 202)
    const busy = await create(h, { language: 'node' })
    assertProblem(busy, 409, 'sdk_generations_busy')
    await h.drainJobs()
    await ok(create(h, { language: 'node' }), 202)
    await h.drainJobs()
  })

  it('lists only the workspace’s own generations, newest first, filtered and paged', async () => {
    const other = await ok(h.request({ method: 'GET', url: '/v2/sdk-generations', key: h.b.live }))
    assert.deepEqual(other.data, [])
    const sandbox = await ok(h.request({ method: 'GET', url: '/sandbox/v2/sdk-generations', key: h.a.test }))
    assert.deepEqual(sandbox.data, [])
    const page = await ok(h.request({ method: 'GET', url: '/v2/sdk-generations?limit=2' }))
    assert.equal(page.data.length, 2)
    assert.ok(page.data[0].id > page.data[1].id)
    const next = await ok(h.request({ method: 'GET', url: `/v2/sdk-generations?limit=2&cursor=${encodeURIComponent(page.next_cursor)}` }))
    assert.ok(next.data[0].id < page.data[1].id)
    const nodeOnly = await ok(h.request({ method: 'GET', url: '/v2/sdk-generations?language=node&limit=100' }))
    assert.ok(nodeOnly.data.length >= 7 && nodeOnly.data.every((g: any) => g.language === 'node'))
    assertProblem(await h.request({ method: 'GET', url: `/v2/sdk-generations?language=python&cursor=${encodeURIComponent(page.next_cursor)}` }), 422, 'invalid_cursor')
  })
})
