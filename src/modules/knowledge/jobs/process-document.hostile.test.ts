import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { constants as zlib, deflateRawSync } from 'node:zlib'
import { createTestApp, ENGINE, json, type TestApp } from '../../../../test/helpers.js'
import { knowledgeApp, newBase, postDocument, uploadForm } from '../knowledge.testkit.js'

/** The document once processed; longer than processed() waits: a parsing thread starts first (busy machine). */
async function processed(h: TestApp, id: string): Promise<any> {
  const until = Date.now() + 150_000
  for (;;) {
    const d = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${id}` }))
    if (d.status === 'ready' || d.status === 'failed') return d
    assert.ok(Date.now() < until, `document ${id} still ${d.status}`)
    await new Promise((res) => setTimeout(res, 100))
  }
}

const MiB = 1024 * 1024

/**
 * Raw DEFLATE of `head`, `size` bytes of one repeated letter, `tail`: a few hundred KB for 300 MiB. One MiB
 * is compressed once and its blocks repeated (each piece ends on a full flush, not a final block, so the
 * pieces join into one stream): building the bomb costs the test next to nothing.
 */
function deflatedBomb(head: string, size: number, tail: string): Buffer {
  const piece = (data: Buffer | string) => deflateRawSync(data, { level: 9, finishFlush: zlib.Z_FULL_FLUSH })
  const block = piece(Buffer.alloc(MiB, 'A'))
  return Buffer.concat([piece(head), ...Array.from({ length: Math.ceil(size / MiB) }, () => block), deflateRawSync(tail)])
}

/** A ZIP archive of already-compressed entries (CRC left 0: nothing gets as far as checking it). */
function zipOf(entries: { name: string; data: Buffer; size: number; method: 0 | 8 }[]): Buffer {
  const locals: Buffer[] = []
  const centrals: Buffer[] = []
  let offset = 0
  for (const e of entries) {
    const name = Buffer.from(e.name)
    const local = Buffer.alloc(30)
    local.writeUInt32LE(0x04034b50, 0)
    local.writeUInt16LE(20, 4)
    local.writeUInt16LE(e.method, 8)
    local.writeUInt32LE(e.data.length, 18)
    local.writeUInt32LE(e.size, 22)
    local.writeUInt16LE(name.length, 26)
    const central = Buffer.alloc(46)
    central.writeUInt32LE(0x02014b50, 0)
    central.writeUInt16LE(20, 4)
    central.writeUInt16LE(20, 6)
    central.writeUInt16LE(e.method, 10)
    central.writeUInt32LE(e.data.length, 20)
    central.writeUInt32LE(e.size, 24)
    central.writeUInt16LE(name.length, 28)
    central.writeUInt32LE(offset, 42)
    locals.push(local, name, e.data)
    centrals.push(central, name)
    offset += local.length + name.length + e.data.length
  }
  const dir = Buffer.concat(centrals)
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(entries.length, 8)
  end.writeUInt16LE(entries.length, 10)
  end.writeUInt32LE(dir.length, 12)
  end.writeUInt32LE(offset, 16)
  return Buffer.concat([...locals, dir, end])
}

const stored = (name: string, text: string) => ({ name, data: Buffer.from(text), size: Buffer.byteLength(text), method: 0 as const })

/** The finding's file: a DOCX of ~300 KB whose word/document.xml inflates to 300 MiB. */
async function zipBombDocx(): Promise<Buffer> {
  const W = 'http://schemas.openxmlformats.org/wordprocessingml/2006/main'
  const head = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document xmlns:w="${W}"><w:body><w:p><w:r><w:t>`
  const tail = '</w:t></w:r></w:p></w:body></w:document>'
  const size = 300 * MiB
  return zipOf([
    stored(
      '[Content_Types].xml',
      '<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/word/document.xml" ContentType="application/vnd.openxmlformats-officedocument.wordprocessingml.document.main+xml"/></Types>',
    ),
    stored(
      '_rels/.rels',
      '<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"><Relationship Id="rId1" Type="http://schemas.openxmlformats.org/officeDocument/2006/relationships/officeDocument" Target="word/document.xml"/></Relationships>',
    ),
    { name: 'word/document.xml', data: deflatedBomb(head, size, tail), size: (head.length + size + tail.length) >>> 0, method: 8 },
  ])
}

const DOCX = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document'

describe(`hostile knowledge documents fail alone (${ENGINE})`, () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())

  it('refuses a ZIP-bomb DOCX while unpacking it: the document fails with the limit, no chunk is written, memory stays flat', async () => {
    const bomb = await zipBombDocx()
    assert.ok(bomb.length < 1 * MiB, `the bomb is small (${bomb.length} bytes)`)
    const kb = await newBase(h)
    global.gc?.()
    const rssBefore = process.memoryUsage().rss
    let peak = rssBefore
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 20)
    const r = await uploadForm(h, kb.id, [{ name: 'file', filename: 'bomb.docx', contentType: DOCX, data: bomb }])
    assert.equal(r.statusCode, 202, r.body)
    const doc = await processed(h, json(r).id)
    clearInterval(sampler)
    assert.equal(doc.status, 'failed')
    assert.match(doc.error, /unpacks to more than 64 MiB \(limit KNOWLEDGE_MAX_INFLATED_BYTES\)/)
    assert.equal(doc.chunk_count, 0)
    const chunks = await h.app.kernel.db.selectFrom('knowledge_chunks').select('id').where('document_id', '=', doc.id).execute()
    assert.equal(chunks.length, 0)
    // Before: 2.75 GB and a dead process. The check unpacks at most the limit (64 MiB) and throws it away.
    assert.ok(peak - rssBefore < 400 * MiB, `RSS grew by ${Math.round((peak - rssBefore) / MiB)} MiB`)
    // A file over a limit is the document's outcome: the job itself succeeded, once.
    const job = await h.app.kernel.db.selectFrom('jobs').select(['status', 'attempts']).where('payload', 'like', `%${doc.id}%`).executeTakeFirstOrThrow()
    assert.deepEqual(job, { status: 'succeeded', attempts: 1 })
  })

  it('fails a document over the text or chunk limits with the limit named', async () => {
    const limited = await knowledgeApp({ KNOWLEDGE_MAX_TEXT_CHARS: '5000', KNOWLEDGE_MAX_CHUNKS: '3' })
    try {
      const kb = await newBase(limited, { chunking: { size: 200, overlap: 0 } })
      const long = await postDocument(limited, kb.id, { title: 'Long', text: 'A sentence of plain words. '.repeat(400) })
      assert.equal(long.statusCode, 202, long.body)
      const tooLong = await processed(limited, json(long).id)
      assert.equal(tooLong.status, 'failed')
      assert.match(tooLong.error, /longer than 5,000 characters .*KNOWLEDGE_MAX_TEXT_CHARS/)
      const many = await postDocument(limited, kb.id, { title: 'Many', text: 'A sentence of plain words. '.repeat(100) })
      const tooMany = await processed(limited, json(many).id)
      assert.equal(tooMany.status, 'failed')
      assert.match(tooMany.error, /more than 3 passages \(limit KNOWLEDGE_MAX_CHUNKS\)/)
      const rows = await limited.app.kernel.db.selectFrom('knowledge_chunks').select('id').where('document_id', 'in', [tooLong.id, tooMany.id]).execute()
      assert.equal(rows.length, 0)
    } finally {
      await limited.close()
    }
  })
})

describe(`a document job that kills its process is dead-lettered (${ENGINE})`, () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('fails the document with the reason once the job has used its attempts, instead of running it again', async () => {
    const kb = await newBase(h)
    const r = await postDocument(h, kb.id, { title: 'Policy', text: 'Refunds take five days.' })
    assert.equal(r.statusCode, 202, r.body)
    const id = json(r).id
    const { db } = h.app.kernel
    const job = await db.selectFrom('jobs').select(['id', 'max_attempts']).where('name', '=', 'knowledge.process-document').where('payload', 'like', `%${id}%`).executeTakeFirstOrThrow()
    // Every attempt was claimed by a process that then died holding it (what the 300 MiB file did).
    await db.updateTable('jobs').set({ status: 'running', attempts: job.max_attempts, locked_by: 'a-dead-process', locked_until: '2000-01-01T00:00:00.000Z' }).where('id', '=', job.id).execute()
    await h.drainJobs()
    const after = await db.selectFrom('jobs').select(['status', 'attempts', 'last_error']).where('id', '=', job.id).executeTakeFirstOrThrow()
    assert.deepEqual(after, { status: 'failed', attempts: job.max_attempts, last_error: `lease expired after ${job.max_attempts} attempts: the process running it died` })
    const doc = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${id}` }))
    assert.equal(doc.status, 'failed')
    assert.equal(doc.error, `Processing stopped after ${job.max_attempts} attempts: the process running it died each time (the file may be too large or malformed to read).`)
    await h.drainJobs()
    assert.equal((await db.selectFrom('jobs').select('attempts').where('id', '=', job.id).executeTakeFirstOrThrow()).attempts, job.max_attempts, 'never claimed again')
  })
})
