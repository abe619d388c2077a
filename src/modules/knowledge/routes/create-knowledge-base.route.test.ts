import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { assertProblem, events, knowledgeApp, newBase } from '../knowledge.testkit.js'

describe('createKnowledgeBase (POST /knowledge/bases)', () => {
  let h: TestApp
  before(async () => (h = await knowledgeApp()))
  after(() => h.close())
  const create = (payload: Record<string, unknown>, key?: string) => h.request({ method: 'POST', url: '/v2/knowledge/bases', payload, ...(key ? { key } : {}) })

  it('creates a base with the documented defaults and announces it', async () => {
    const kb = await newBase(h, { name: 'Help center' })
    assert.match(kb.id, /^kb_[0-9A-Z]{26}$/)
    assert.equal(kb.object, 'knowledge_base')
    assert.equal(kb.language, 'en')
    assert.deepEqual(kb.chunking, { size: 1000, overlap: 150 })
    assert.equal(kb.document_count, 0)
    assert.equal(kb.chunk_count, 0)
    assert.equal(kb.last_crawl, null)
    assert.equal(kb.description, null)
    assert.deepEqual(kb.metadata, {})
    assert.deepEqual(await events(h, 'knowledge_base.created', kb.id), [kb])
  })

  it('keeps a description, language, chunking and metadata', async () => {
    const kb = await newBase(h, { name: 'FAQ', description: 'Billing answers', language: 'de', chunking: { size: 600, overlap: 0 }, metadata: { team: 'billing' } })
    assert.equal(kb.description, 'Billing answers')
    assert.equal(kb.language, 'de')
    assert.deepEqual(kb.chunking, { size: 600, overlap: 0 })
    assert.deepEqual(kb.metadata, { team: 'billing' })
  })

  it('accepts an overlap of exactly half the size', async () => {
    const kb = await newBase(h, { chunking: { size: 200, overlap: 100 } })
    assert.deepEqual(kb.chunking, { size: 200, overlap: 100 })
  })

  it('answers 422 with a pointer for an overlap over half the size, a bad language or unknown fields', async () => {
    const p = assertProblem(await create({ name: 'x', chunking: { size: 400, overlap: 300 } }), 422, 'validation_failed')
    assert.equal(p.errors[0].pointer, '/body/chunking/overlap')
    for (const payload of [{}, { name: '' }, { name: 'x', language: 'english' }, { name: 'x', chunking: { size: 50, overlap: 0 } }, { name: 'x', colour: 'red' }]) {
      assertProblem(await create(payload), 422, 'validation_failed')
    }
  })

  it('keeps sandbox bases apart from live ones', async () => {
    const r = await h.request({ method: 'POST', url: '/sandbox/v2/knowledge/bases', payload: { name: 'Sandbox' }, key: h.a.test })
    assert.equal(r.statusCode, 201)
    const live = await h.request({ method: 'GET', url: `/v2/knowledge/bases/${json(r).id}` })
    assertProblem(live, 404, 'resource_not_found')
  })

  it('requires write (read is not enough)', async () => {
    const key = await h.key(['read'])
    assertProblem(await create({ name: 'x' }, key), 403, 'insufficient_scope')
    assert.equal((await create({ name: 'x' }, await h.key(['write']))).statusCode, 201)
  })
})
