import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, assertProblem, events, knowledgeApp, newBase, postDocument, processed } from '../knowledge.testkit.js'

// JSON uploads, duplicates and limits; files (multipart/form-data) are in upload-knowledge-document.files.test.ts.
describe('uploadKnowledgeDocument (POST /knowledge/bases/{id}/documents) with JSON', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp({ KNOWLEDGE_MAX_UPLOAD_BYTES: '4096' })))
  after(() => h.close())

  it('accepts text with 202, queued, and processes it to ready with chunks and an event', async () => {
    const kb = await newBase(h)
    const r = await postDocument(h, kb.id, { title: 'Shipping', text: 'Parcels ship within two working days.', source_url: 'https://help.example.com/shipping' })
    assert.equal(r.statusCode, 202, r.body)
    const queued = json(r)
    assert.match(queued.id, /^doc_[0-9A-Z]{26}$/)
    assert.equal(queued.status, 'queued')
    assert.equal(queued.format, 'text')
    assert.equal(queued.content_type, 'text/plain')
    assert.equal(queued.origin, 'api')
    assert.equal(queued.source_url, 'https://help.example.com/shipping')
    assert.equal(queued.size_bytes, Buffer.byteLength('Parcels ship within two working days.'))
    assert.match(queued.checksum, /^[0-9a-f]{64}$/)
    const ready = await processed(h, queued.id)
    assert.equal(ready.status, 'ready')
    assert.equal(ready.error, null)
    assert.equal(ready.chunk_count, 1)
    const [event] = await events(h, 'knowledge_document.ready', queued.id)
    assert.equal(event.status, 'ready')
    assert.equal(event.chunk_count, 1)
  })

  it('reads HTML main content and keeps its headings', async () => {
    const kb = await newBase(h)
    const html = '<html><head><title>Help</title></head><body><nav>Home | Blog</nav><main><h1>Returns</h1><p>Return any item within 30 days.</p></main><footer>© Acme</footer></body></html>'
    const doc = await addText(h, kb.id, { title: 'Returns page', text: html, content_type: 'text/html' })
    assert.equal(doc.status, 'ready')
    assert.equal(doc.format, 'html')
    assert.equal(doc.title, 'Returns page')
    const full = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}?include=chunks,text` }))
    assert.match(full.text, /Return any item within 30 days\./)
    assert.doesNotMatch(full.text, /Home \| Blog/)
    assert.deepEqual(full.chunks[0].heading_path, ['Returns'])
  })

  it('answers an identical upload with 200 and the existing document, queueing nothing; another base takes it anew', async () => {
    const kb = await newBase(h)
    const first = await addText(h, kb.id, { title: 'FAQ', text: 'Identical bytes.' })
    const again = await postDocument(h, kb.id, { title: 'FAQ copy', text: 'Identical bytes.' })
    assert.equal(again.statusCode, 200, again.body)
    assert.equal(json(again).id, first.id)
    assert.equal(json(again).title, 'FAQ')
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` })).document_count, 1)
    const other = await newBase(h, { name: 'Other' })
    assert.equal((await postDocument(h, other.id, { title: 'FAQ', text: 'Identical bytes.' })).statusCode, 202)
  })

  it('answers two identical uploads sent at once with one document', async () => {
    const kb = await newBase(h)
    const [a, b] = await Promise.all([postDocument(h, kb.id, { title: 'A', text: 'Racing bytes.' }), postDocument(h, kb.id, { title: 'B', text: 'Racing bytes.' })])
    assert.deepEqual([a.statusCode, b.statusCode].sort(), [200, 202])
    assert.equal(json(a).id, json(b).id)
  })

  it('answers 413 for text over KNOWLEDGE_MAX_UPLOAD_BYTES', async () => {
    const kb = await newBase(h)
    const p = assertProblem(await postDocument(h, kb.id, { title: 'Big', text: 'x'.repeat(5000) }), 413, 'payload_too_large')
    assert.match(p.detail, /4096/)
  })

  it('answers 422 for a missing title or text, an unknown content type or field, and no body', async () => {
    const kb = await newBase(h)
    for (const payload of [{ text: 'x' }, { title: 'x' }, { title: 'x', text: '' }, { title: 'x', text: 'y', content_type: 'application/pdf' }, { title: 'x', text: 'y', extra: 1 }]) {
      assertProblem(await postDocument(h, kb.id, payload), 422, 'validation_failed')
    }
    assertProblem(await h.request({ method: 'POST', url: `/v2/knowledge/bases/${kb.id}/documents` }), 422, 'validation_failed')
  })

  it('answers 404 for an unknown or foreign base, and 415 for a body that is neither JSON nor a form', async () => {
    assertProblem(await postDocument(h, 'kb_00000000000000000000000000', { title: 'x', text: 'y' }), 404, 'resource_not_found')
    const theirs = await newBase(h, {}, h.b.live)
    assertProblem(await postDocument(h, theirs.id, { title: 'x', text: 'y' }), 404, 'resource_not_found')
    const kb = await newBase(h)
    const r = await h.request({ method: 'POST', url: `/v2/knowledge/bases/${kb.id}/documents`, headers: { 'content-type': 'text/plain' }, payload: 'hello' })
    assertProblem(r, 415, 'unsupported_media_type')
  })

  it('replays the first answer for the same Idempotency-Key', async () => {
    const kb = await newBase(h)
    const send = () => h.request({ method: 'POST', url: `/v2/knowledge/bases/${kb.id}/documents`, payload: { title: 'Idem', text: 'Once only.' }, headers: { 'idempotency-key': 'upload-1' } })
    const first = await send()
    const second = await send()
    assert.equal(first.statusCode, 202)
    assert.equal(second.statusCode, 202)
    assert.equal(json(second).id, json(first).id)
    assert.equal(json(second).status, 'queued')
  })
})
