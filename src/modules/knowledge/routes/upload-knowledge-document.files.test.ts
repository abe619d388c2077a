import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { buildDocx, buildPdf } from '../ingest/fixtures/build-fixtures.js'
import { assertProblem, events, knowledgeApp, newBase, processed, uploadForm } from '../knowledge.testkit.js'

describe('uploadKnowledgeDocument (POST /knowledge/bases/{id}/documents) with multipart/form-data', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp({ KNOWLEDGE_MAX_UPLOAD_BYTES: '65536' })))
  after(() => h.close())

  async function upload(kbId: string, file: { filename: string; contentType: string; data: Buffer | string }, fields: Record<string, string> = {}) {
    const r = await uploadForm(h, kbId, [...Object.entries(fields).map(([name, value]) => ({ name, value })), { name: 'file', ...file }])
    assert.equal(r.statusCode, 202, r.body)
    return processed(h, json(r).id, undefined, 'chunks,text')
  }

  it('takes a text file; the title defaults to the file name', async () => {
    const kb = await newBase(h)
    const doc = await upload(kb.id, { filename: 'notes.txt', contentType: 'text/plain', data: 'Opening hours are nine to five.' })
    assert.equal(doc.status, 'ready', doc.error)
    assert.equal(doc.origin, 'upload')
    assert.equal(doc.filename, 'notes.txt')
    assert.equal(doc.title, 'notes.txt')
    assert.equal(doc.format, 'text')
  })

  it('takes Markdown by its file name, with the title, source URL and metadata fields', async () => {
    const kb = await newBase(h)
    const md = '# Setup\n\nInstall the app.\n\n## Login\n\nUse your work email to log in.'
    const doc = await upload(
      kb.id,
      { filename: 'guide.md', contentType: 'application/octet-stream', data: md },
      { title: 'Guide', source_url: 'https://docs.example.com/guide', metadata: '{"lang":"en"}' },
    )
    assert.equal(doc.status, 'ready', doc.error)
    assert.equal(doc.format, 'markdown')
    assert.equal(doc.title, 'Guide')
    assert.equal(doc.source_url, 'https://docs.example.com/guide')
    assert.deepEqual(doc.metadata, { lang: 'en' })
    const login = doc.chunks.find((c: any) => c.text.includes('work email'))
    assert.deepEqual(login.heading_path, ['Setup', 'Login'])
  })

  it('takes a PDF and keeps page numbers on its chunks; its own title replaces the file name', async () => {
    const kb = await newBase(h, { chunking: { size: 200, overlap: 0 } })
    const pdf = await buildPdf(['Warranty covers manufacturing defects for two years.', 'Accidental damage is not covered by the warranty.'], { title: 'Warranty terms' })
    const doc = await upload(kb.id, { filename: 'warranty.pdf', contentType: 'application/pdf', data: pdf })
    assert.equal(doc.status, 'ready', doc.error)
    assert.equal(doc.format, 'pdf')
    assert.equal(doc.page_count, 2)
    assert.equal(doc.title, 'Warranty terms')
    const damage = doc.chunks.find((c: any) => c.text.includes('Accidental damage'))
    assert.equal(damage.page, 2)
    assert.equal(doc.chunks.find((c: any) => c.text.includes('two years')).page, 1)
    for (const c of doc.chunks) assert.equal(doc.text.slice(c.start, c.end), c.text)
  })

  it('takes a DOCX and keeps its headings', async () => {
    const kb = await newBase(h)
    const docx = await buildDocx([{ heading: 1, text: 'Security' }, { text: 'Passwords are hashed.' }, { heading: 2, text: 'Two-factor' }, { text: 'Enable two-factor login in settings.' }])
    const doc = await upload(kb.id, { filename: 'security.docx', contentType: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document', data: docx })
    assert.equal(doc.status, 'ready', doc.error)
    assert.equal(doc.format, 'docx')
    assert.deepEqual(doc.chunks.find((c: any) => c.text.includes('Enable two-factor')).heading_path, ['Security', 'Two-factor'])
  })

  it('ends a corrupt PDF in failed with a readable error and an event, never a 5xx', async () => {
    const kb = await newBase(h)
    const r = await uploadForm(h, kb.id, [{ name: 'file', filename: 'broken.pdf', contentType: 'application/pdf', data: '%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage' }])
    assert.equal(r.statusCode, 202, r.body)
    const doc = await processed(h, json(r).id)
    assert.equal(doc.status, 'failed')
    assert.match(doc.error, /PDF/)
    assert.equal(doc.chunk_count, 0)
    assert.equal((await events(h, 'knowledge_document.failed', doc.id))[0].error, doc.error)
    // A failed document does not block the same bytes (a retry after fixing nothing fails again, visibly).
    const again = await uploadForm(h, kb.id, [{ name: 'file', filename: 'broken.pdf', contentType: 'application/pdf', data: '%PDF-1.7\n1 0 obj << /Type /Catalog >> garbage' }])
    assert.equal(again.statusCode, 202)
  })

  it('answers an identical file with 200 and the existing document', async () => {
    const kb = await newBase(h)
    const first = await upload(kb.id, { filename: 'a.txt', contentType: 'text/plain', data: 'Same file bytes.' })
    const again = await uploadForm(h, kb.id, [{ name: 'file', filename: 'b.txt', contentType: 'text/plain', data: 'Same file bytes.' }])
    assert.equal(again.statusCode, 200, again.body)
    assert.equal(json(again).id, first.id)
  })

  it('answers 413 for a file over KNOWLEDGE_MAX_UPLOAD_BYTES and 415 for an unsupported type', async () => {
    const kb = await newBase(h)
    const big = assertProblem(await uploadForm(h, kb.id, [{ name: 'file', filename: 'big.txt', contentType: 'text/plain', data: Buffer.alloc(70_000, 'a') }]), 413, 'payload_too_large')
    assert.match(big.detail, /65536/)
    const png = assertProblem(
      await uploadForm(h, kb.id, [{ name: 'file', filename: 'logo.png', contentType: 'image/png', data: Buffer.from([0x89, 0x50, 0x4e, 0x47]) }]),
      415,
      'document_type_unsupported',
    )
    assert.match(png.detail, /logo\.png/)
  })

  it('answers 422 for a form without a file, with an unknown field, bad metadata or an empty file', async () => {
    const kb = await newBase(h)
    const file = { name: 'file', filename: 'a.txt', contentType: 'text/plain', data: 'x' }
    assertProblem(await uploadForm(h, kb.id, [{ name: 'title', value: 'No file' }]), 422, 'validation_failed')
    assertProblem(await uploadForm(h, kb.id, [file, { name: 'colour', value: 'red' }]), 422, 'validation_failed')
    const meta = assertProblem(await uploadForm(h, kb.id, [file, { name: 'metadata', value: '[1,2]' }]), 422, 'validation_failed')
    assert.equal(meta.errors[0].pointer, '/body/metadata')
    assertProblem(await uploadForm(h, kb.id, [{ ...file, data: '' }]), 422, 'validation_failed')
    assertProblem(await uploadForm(h, kb.id, [file, { ...file, filename: 'b.txt' }]), 413, 'payload_too_large')
  })

  it('answers 400 for a malformed form, and 415 for a form sent to an operation that takes only JSON', async () => {
    const kb = await newBase(h)
    const broken = await h.request({
      method: 'POST',
      url: `/v2/knowledge/bases/${kb.id}/documents`,
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: '--xyz\r\nContent-Disposition: form-data; name="file"; filename="a.txt"\r\n\r\nunterminated',
    })
    assertProblem(broken, 400, 'bad_request')
    const f = await uploadForm(h, kb.id, [{ name: 'name', value: 'x' }])
    assert.equal(f.statusCode, 422)
    const r = await h.request({ method: 'POST', url: '/v2/knowledge/bases', headers: { 'content-type': 'multipart/form-data; boundary=xyz' }, payload: '--xyz--\r\n' })
    assertProblem(r, 415, 'unsupported_media_type')
  })

  it('fingerprints the file for Idempotency-Key: another file under the same key is a conflict', async () => {
    const kb = await newBase(h)
    const send = (data: string) => uploadForm(h, kb.id, [{ name: 'file', filename: 'a.txt', contentType: 'text/plain', data }], { headers: { 'idempotency-key': 'file-1' } })
    const first = await send('First content.')
    assert.equal(first.statusCode, 202)
    const replay = await send('First content.')
    assert.equal(json(replay).id, json(first).id)
    assertProblem(await send('Other content.'), 409, 'idempotency_key_reused')
  })
})
