import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { addText, knowledgeApp, newBase, paragraphs } from '../knowledge.testkit.js'
import type { ProcessDocumentPayload } from './process-document.job.js'

describe('knowledge.process-document job', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const job = () => h.app.services.knowledge.jobs.find((j) => j.name === 'knowledge.process-document')!
  const run = (payload: ProcessDocumentPayload, attempt = 1) => job().run(payload, { jobId: 'job_test', attempt })

  it('is idempotent: running it again for a ready document writes the same chunks once', async () => {
    const kb = await newBase(h, { chunking: { size: 300, overlap: 40 } })
    const doc = await addText(h, kb.id, { title: 'Policy', text: paragraphs(12) })
    const payload = { workspace_id: h.a.workspaceId, mode: 'live' as const, document_id: doc.id }
    await run(payload)
    await run(payload)
    const again = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}?include=chunks` }))
    assert.equal(again.status, 'ready')
    assert.equal(again.chunk_count, doc.chunk_count)
    assert.equal(again.chunks.length, doc.chunk_count)
    const rows = await h.app.kernel.db.selectFrom('knowledge_chunks').select('id').where('document_id', '=', doc.id).execute()
    assert.equal(rows.length, doc.chunk_count)
    const base = json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` }))
    assert.equal(base.chunk_count, doc.chunk_count)
  })

  it('does nothing for a document or base that is gone', async () => {
    await run({ workspace_id: h.a.workspaceId, mode: 'live', document_id: 'doc_00000000000000000000000000' })
  })
})

describe('knowledge usage counters', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())

  it('counts documents and chunks per day in the workspace usage report', async () => {
    const kb = await newBase(h, { chunking: { size: 300, overlap: 0 } })
    const doc = await addText(h, kb.id, { title: 'Policy', text: paragraphs(5) })
    const usage = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage` }))
    assert.equal(usage.totals.knowledge_documents, 1)
    assert.equal(usage.totals.knowledge_chunks, doc.chunk_count)
  })
})
