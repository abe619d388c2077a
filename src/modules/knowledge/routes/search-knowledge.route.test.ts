import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { json, type TestApp } from '../../../../test/helpers.js'
import { startApp, addDocument, assertProblem, createBase, excerptWords, search, searchOk, startFakeEmbeddings } from '../knowledge.search.testkit.js'

const REFUNDS = {
  title: 'Refund policy',
  content_type: 'text/markdown',
  text:
    '# Refund policy\n\nWe refund any purchase within 14 days of delivery, no questions asked.\n\n' +
    '## How to ask for a refund\n\nWrite to billing@example.com with your order number. Refunds are paid back to the original card within five working days.\n',
  metadata: { team: 'billing' },
}
const SHIPPING = {
  title: 'Shipping times',
  text: 'Orders ship from our warehouse in Lyon. Delivery takes two to four working days in France and up to ten days abroad.',
  metadata: { team: 'logistics' },
}
const HOURS = { title: 'Opening hours', text: 'Our support team answers Monday to Friday, 9:00 to 17:00 CET, by chat and e-mail.', metadata: { team: 'support' } }

describe('searchKnowledge (POST /knowledge/search)', () => {
  let h: TestApp
  let kb: any
  let docs: Record<string, any>
  before(async () => {
    h = await startApp()
    kb = await createBase(h, { name: 'Help center', language: 'en' })
    docs = {
      refunds: await addDocument(h, kb.id, REFUNDS),
      shipping: await addDocument(h, kb.id, SHIPPING),
      hours: await addDocument(h, kb.id, HOURS),
    }
    for (const d of Object.values(docs)) assert.equal(d.status, 'ready', JSON.stringify(d))
  })
  after(() => h.close())

  it('finds the passage that answers the question and cites it with offsets into the document text', async () => {
    const r = await searchOk(h, { query: 'How do I get my money refunded?' })
    assert.equal(r.object, 'knowledge_search')
    assert.equal(r.ranking, 'keyword')
    assert.ok(r.results.length >= 1)
    const top = r.results[0]
    assert.equal(top.citation.document_id, docs.refunds.id)
    assert.equal(top.citation.knowledge_base_id, kb.id)
    assert.equal(top.citation.title, 'Refund policy')
    assert.match(top.citation.chunk_id, /^chk_/)
    assert.ok(top.score > 0 && top.score <= 1, String(top.score))
    // "refunded" was stemmed like "refund"/"Refunds": the matched words are marked in the excerpt.
    assert.match(top.excerpt, /«[Rr]efund(s)?»/)
    const full = json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${docs.refunds.id}?include=chunks` }))
    const cited = (full.text ?? (full.chunks as any[]).map((c: any) => c.text).join('')) as string
    const passage = full.text ? cited.slice(top.citation.start, top.citation.end) : (full.chunks as any[]).find((c: any) => c.id === top.citation.chunk_id).text
    for (const w of excerptWords(top.excerpt)) assert.ok(passage.includes(w), `"${w}" is not in the cited passage "${passage}"`)
    assert.ok(Array.isArray(top.citation.heading_path))
    assert.equal(top.citation.page, null)
    for (let i = 1; i < r.results.length; i++) assert.ok(r.results[i - 1].score >= r.results[i].score, 'best first')
  })

  it('weights the title: a question naming a document finds it first', async () => {
    const r = await searchOk(h, { query: 'opening hours' })
    assert.equal(r.results[0].citation.document_id, docs.hours.id)
    assert.equal(r.results[0].score, 1)
    assert.equal(r.gap, null)
  })

  it('honours top_k, min_score and metadata filters', async () => {
    const many = await searchOk(h, { query: 'working days delivery refund support' })
    assert.ok(many.results.length >= 2, JSON.stringify(many.results))
    assert.equal((await searchOk(h, { query: 'working days delivery refund support', top_k: 1 })).results.length, 1)
    const strict = await searchOk(h, { query: 'working days delivery refund support', min_score: 0.99 })
    assert.ok(strict.results.every((x: any) => x.score >= 0.99))
    assert.ok(strict.results.length < many.results.length)
    const billing = await searchOk(h, { query: 'working days delivery refund support', filters: { metadata: { team: 'billing' } } })
    assert.ok(billing.results.length >= 1)
    assert.ok(billing.results.every((x: any) => x.citation.document_id === docs.refunds.id))
    const none = await searchOk(h, { query: 'refund', filters: { metadata: { team: 'nobody' } } })
    assert.deepEqual(none.results, [])
  })

  it('answers extractively with numbered citations, and says so when nothing relevant was found', async () => {
    const r = await searchOk(h, { query: 'How many days do I have to ask for a refund?', answer: true })
    assert.ok(r.answer.grounded)
    // One to three sentences of one result (the one whose sentences answer), cited by its [n] once.
    assert.equal(r.answer.content, 'We refund any purchase within 14 days of delivery, no questions asked. [' + (r.answer.citations[0] + 1) + ']')
    assert.equal(r.answer.citations.length, 1)
    for (const i of r.answer.citations) assert.ok(r.results[i], `citation ${i} points at a result`)
    const none = await searchOk(h, { query: 'Is the parrot sleeping in the aquarium?', answer: true })
    assert.equal(none.answer.grounded, false)
    assert.deepEqual(none.answer.citations, [])
    assert.match(none.answer.content, /nothing/i)
  })

  it('searches only the bases asked for, and only its own workspace and mode', async () => {
    const other = await createBase(h, { name: 'Internal' })
    await addDocument(h, other.id, { title: 'Refund fraud', text: 'Refund requests from flagged accounts go to the risk team.' })
    const only = await searchOk(h, { query: 'refund', knowledge_base_ids: [other.id] })
    assert.ok(only.results.length >= 1)
    assert.ok(only.results.every((x: any) => x.citation.knowledge_base_id === other.id))
    // Workspace B and the sandbox see none of A's knowledge.
    assert.deepEqual((await searchOk(h, { query: 'refund' }, h.b.live)).results, [])
    const sandbox = await h.request({ method: 'POST', url: '/sandbox/v2/knowledge/search', payload: { query: 'refund' }, key: h.a.test })
    assert.equal(sandbox.statusCode, 200, sandbox.body)
    assert.deepEqual(json(sandbox).results, [])
  })

  it('refuses an empty query (422) and unknown or foreign bases (422 invalid_reference at the field), never 5xx', async () => {
    assertProblem(await search(h, { query: '' }), 422, 'validation_failed')
    assertProblem(await search(h, { query: '   ' }), 422, 'validation_failed')
    assertProblem(await search(h, {}), 422, 'validation_failed')
    assertProblem(await search(h, { query: 'refund', top_k: 51 }), 422, 'validation_failed')
    const unknown = await search(h, { query: 'refund', knowledge_base_ids: [kb.id, 'kb_01JD0000000000000000000000'] })
    assertProblem(unknown, 422, 'invalid_reference')
    assert.deepEqual(
      json(unknown).errors.map((e: { pointer: string }) => e.pointer),
      ['/body/knowledge_base_ids/1'],
    )
    assertProblem(await search(h, { query: 'refund', knowledge_base_ids: [kb.id] }, h.b.live), 422, 'invalid_reference')
    assertProblem(await h.request({ method: 'POST', url: '/sandbox/v2/knowledge/search', payload: { query: 'refund', knowledge_base_ids: [kb.id] }, key: h.a.test }), 422, 'invalid_reference')
    // Search syntax of either engine is only text to us.
    const odd = await searchOk(h, { query: `refund" OR kb : * AND 'x' | !(NEAR) -- ;` })
    assert.ok(odd.results.length >= 1)
  })

  it('counts searches in the workspace usage report', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const u = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage?from=${today}&to=${today}` }))
    assert.ok(u.totals.knowledge_searches >= 8, JSON.stringify(u.totals))
  })
})

describe('searchKnowledge with an embeddings provider (hybrid ranking)', () => {
  // The vectors know that "reimburse", "money" and "back" mean refund; the keyword index does not.
  const synonyms = { refund: ['refund', 'refunds', 'reimburse', 'reimbursed', 'money', 'back', 'repay', 'repaid'] }
  const strong = {
    title: 'Refund of customs duties',
    text: 'Refund of customs duties: customs brokers, tariff codes, import declarations, pallets, freight forwarders and port fees are handled by the carrier.',
  }
  const meaning = { title: 'Getting your money back', text: 'We reimburse you: money back, repaid to your card. Refund within a week.' }
  let keyword: TestApp
  let hybrid: TestApp
  let server: Awaited<ReturnType<typeof startFakeEmbeddings>>
  before(async () => {
    server = await startFakeEmbeddings(synonyms)
    keyword = await startApp()
    hybrid = await startApp({ EMBEDDINGS_BASE_URL: server.baseUrl, EMBEDDINGS_MODEL: 'fake-embed' })
    for (const app of [keyword, hybrid]) {
      const kb = await createBase(app)
      for (const d of [strong, meaning]) assert.equal((await addDocument(app, kb.id, d)).status, 'ready')
    }
  })
  after(async () => {
    await keyword?.close()
    await hybrid?.close()
    await server?.close()
  })

  it('re-ranks the keyword candidates by meaning, and says which ranking it used', async () => {
    const k = await searchOk(keyword, { query: 'refund' })
    const v = await searchOk(hybrid, { query: 'refund' })
    assert.equal(k.ranking, 'keyword')
    assert.equal(v.ranking, 'hybrid')
    assert.deepEqual(
      k.results.map((x: any) => x.citation.title),
      ['Refund of customs duties', 'Getting your money back'],
    )
    assert.deepEqual(
      v.results.map((x: any) => x.citation.title),
      ['Getting your money back', 'Refund of customs duties'],
    )
    assert.ok(v.results.every((x: any) => x.score > 0 && x.score <= 1))
    // Chunks were embedded in batches with the configured model, and the question once per search.
    assert.ok(server.requests.every((r) => r.model === 'fake-embed'))
    assert.ok(server.requests.some((r) => r.input.length === 1 && r.input[0] === 'refund'))
  })

  it('falls back to keyword ranking, and says so, when the provider is unreachable', async () => {
    await server.close()
    const v = await searchOk(hybrid, { query: 'refund' })
    assert.equal(v.ranking, 'keyword')
    assert.equal(v.results[0].citation.title, 'Refund of customs duties')
  })
})
