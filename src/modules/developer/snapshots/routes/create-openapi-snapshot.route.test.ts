import assert from 'node:assert/strict'
import { createHash } from 'node:crypto'
import { after, before, describe, it } from 'node:test'
import { stringify } from 'safe-stable-stringify'
import { assertProblem, createTestApp, events, get, json, ok, post, type TestApp } from '../../../../../test/helpers.js'

const sha256 = (s: string | Buffer) => createHash('sha256').update(s).digest('hex')

describe('createOpenApiSnapshot', () => {
  let h: TestApp
  let served: Record<string, any>
  before(async () => {
    h = await createTestApp()
    served = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
  })
  after(() => h.close())

  it('stores the served document with its version, the SHA-256 of its canonical JSON and its operation count; the first has no diff', async () => {
    const snap = await ok(post(h, '/openapi-snapshots', { label: 'v2.4.0' }), 201)
    const operations = Object.values<Record<string, unknown>>(served.paths).reduce((n, methods) => n + Object.keys(methods).length, 0)
    assert.match(snap.id, /^snap_/)
    assert.equal(snap.object, 'openapi_snapshot')
    assert.equal(snap.label, 'v2.4.0')
    assert.equal(snap.api_version, served.info.version)
    assert.equal(snap.openapi_version, '3.1.0')
    assert.equal(snap.sha256, sha256(stringify(served)))
    assert.equal(snap.operation_count, operations)
    assert.ok(operations > 100 && served.paths['/openapi-snapshots'].post, 'the document has this very operation')
    assert.equal(snap.size_bytes, Buffer.byteLength(stringify(served)))
    assert.equal(snap.previous_snapshot_id, null)
    assert.equal(snap.diff, null)
    assert.equal(snap.unchanged, false)
    assert.equal(snap.breaking, false)
    assert.equal(snap.document_url, `${h.config.publicUrl}/v2/openapi-snapshots?id=${snap.id}&include=document`)
    const [event] = (await events(h, 'openapi_snapshot.created')).filter((e) => e.id === snap.id)
    assert.deepEqual(event, snap)
  })

  it('its document downloads from document_url: the served document, hashing to its sha256', async () => {
    const snap = await ok(post(h, '/openapi-snapshots'), 201)
    const page = await ok(h.request({ method: 'GET', url: snap.document_url.slice(h.config.publicUrl.length) }))
    assert.equal(page.data.length, 1)
    const { document, ...rest } = page.data[0]
    assert.deepEqual(rest, snap)
    assert.deepEqual(document, served)
    assert.equal(sha256(stringify(document)), snap.sha256)
    // Stored once per content: equal snapshots share one file.
    const keys = await h.app.kernel.db.selectFrom('developer_openapi_snapshots').select('document_key').distinct().execute()
    assert.deepEqual(keys, [{ document_key: `developer/openapi/${snap.sha256}.json` }])
    const stat = await h.app.kernel.blobs.stat(keys[0].document_key)
    assert.equal(stat?.size, snap.size_bytes)
  })

  it('the same document again is still a snapshot: unchanged, with an empty diff from the previous one', async () => {
    const first = (await ok(get(h, '/openapi-snapshots?limit=1'))).data[0]
    const again = await ok(post(h, '/openapi-snapshots', { label: 'again' }), 201)
    assert.equal(again.previous_snapshot_id, first.id)
    assert.equal(again.unchanged, true)
    assert.equal(again.breaking, false)
    assert.deepEqual(again.diff, { added_operations: [], removed_operations: [], breaking_changes: [], non_breaking_changes: [] })
    assert.equal(again.sha256, first.sha256)
  })

  it('diffs from the previous snapshot’s stored document: a build that dropped an operation and a response field is breaking', async () => {
    // The previous snapshot as an earlier build would have left it: its document had an operation and a
    // Bot field this build no longer has.
    const older = structuredClone(served)
    older.paths['/bots/{id}/archive'] = { post: { ...structuredClone(served.paths['/bots/{id}/publish'].post), operationId: 'archiveBot' } }
    older.components.schemas.Bot.properties.legacy_score = { type: 'integer' }
    older.components.schemas.Bot.required.push('legacy_score')
    const text = stringify(older)
    const hash = sha256(text)
    const key = `developer/openapi/${hash}.json`
    await h.app.kernel.blobs.put(key, Buffer.from(text), { contentType: 'application/json' })
    const previous = await ok(post(h, '/openapi-snapshots', { label: 'previous build' }), 201)
    await h.app.kernel.db.updateTable('developer_openapi_snapshots').set({ sha256: hash, document_key: key }).where('id', '=', previous.id).execute()

    const snap = await ok(post(h, '/openapi-snapshots', { label: 'this build' }), 201)
    assert.equal(snap.previous_snapshot_id, previous.id)
    assert.equal(snap.unchanged, false)
    assert.equal(snap.breaking, true)
    assert.deepEqual(snap.diff.removed_operations, [{ operation_id: 'archiveBot', method: 'POST', path: '/bots/{id}/archive' }])
    assert.deepEqual(snap.diff.added_operations, [])
    const breaking = snap.diff.breaking_changes
    assert.ok(breaking.some((c: any) => c.kind === 'operation_removed' && c.operation_id === 'archiveBot' && c.location === '/paths/~1bots~1{id}~1archive/post'))
    assert.ok(breaking.some((c: any) => c.kind === 'response_field_removed' && c.operation_id === 'getBot' && c.location === '/components/schemas/Bot/properties/legacy_score'))
    assert.deepEqual(snap.diff.non_breaking_changes, [])
    // Listed as created.
    const listed = (await ok(get(h, `/openapi-snapshots?id=${snap.id}`))).data[0]
    assert.deepEqual(listed, snap)
  })

  it('validates its body', async () => {
    assertProblem(await post(h, '/openapi-snapshots', { label: '' }), 422, 'validation_failed')
    assertProblem(await post(h, '/openapi-snapshots', { name: 'x' }), 422, 'validation_failed')
    assertProblem(await post(h, '/openapi-snapshots', {}, { key: await h.key(['read']) }), 403, 'insufficient_scope')
  })

  it('snapshots are per workspace and mode: the sandbox diffs from its own first snapshot', async () => {
    const sandbox = json(await h.request({ method: 'POST', url: '/sandbox/v2/openapi-snapshots', key: h.a.test, payload: {} }))
    assert.equal(sandbox.previous_snapshot_id, null)
    assert.match(sandbox.document_url, /\/sandbox\/v2\/openapi-snapshots\?id=snap_/)
    const other = await ok(post(h, '/openapi-snapshots', {}, { key: h.b.live }), 201)
    assert.equal(other.previous_snapshot_id, null)
  })
})
