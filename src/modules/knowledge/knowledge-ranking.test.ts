import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql } from 'kysely'
import { ENGINE, json, type TestApp } from '../../../test/helpers.js'
import * as index from './knowledge-index.repository.js'
import { bm25f, COMMON_CAP, idf, planFilters, relevanceScorer, termFrequencies, termsOfFrequencies, type TermStats } from './knowledge-ranking.js'
import { KnowledgeSearchService } from './knowledge-search.service.js'
import { applyStats, StatsDelta } from './knowledge-stats.repository.js'
import * as repo from './knowledge.repository.js'
import { backfillStats } from './knowledge.search.migrations.js'
import { addDocument, createBase, searchOk, startApp } from './knowledge.search.testkit.js'

const statsOf = (df: Record<string, number>, chunks = 10_000): TermStats => ({ df: new Map(Object.entries(df)), chunks, avgHead: 4, avgBody: 100 })

describe('knowledge ranking: query plan and BM25F', () => {
  it('matches on the rarest terms within the postings budget, and on the common ones together, newest first', () => {
    const s = statsOf({ refund: 40, card: 300, order: 5000, day: 6000, time: 7000 })
    assert.deepEqual(planFilters(['day', 'refund', 'order', 'card', 'unknown'], s, 1000), [{ any: ['refund', 'card'] }, { newest: ['order', 'day'], cap: COMMON_CAP }])
    // Two very common terms likely share more chunks than the budget: a third narrows them.
    assert.deepEqual(planFilters(['order', 'day', 'time'], s, 1000), [{ newest: ['order', 'day', 'time'], cap: COMMON_CAP }])
    assert.deepEqual(planFilters(['order'], s, 1000), [{ newest: ['order'], cap: COMMON_CAP }])
    assert.deepEqual(planFilters(['unknown'], s, 1000), [])
  })

  it('scores about 1 for every term once in a text of average length, about half for half the weight', () => {
    const s = statsOf({ refund: 40, card: 40 })
    const chunk = (head: string[], body: string[], bodyLen = 100) => ({ terms: termFrequencies(head, body), head_len: 4, body_len: bodyLen })
    const both = bm25f(chunk([], ['refund', 'card']), ['refund', 'card'], s)
    assert.ok(Math.abs(both.score - 1) < 1e-9, String(both.score))
    const half = bm25f(chunk([], ['refund']), ['refund', 'card'], s)
    assert.ok(Math.abs(half.score - 0.5) < 1e-9, String(half.score))
    assert.equal(bm25f(chunk([], ['other']), ['refund', 'card'], s).score, 0)
    // The title weighs more than the text, and a longer text less than a shorter one.
    assert.ok(bm25f(chunk(['refund'], []), ['refund'], s).raw > bm25f(chunk([], ['refund']), ['refund'], s).raw)
    assert.ok(bm25f(chunk([], ['refund'], 400), ['refund'], s).raw < bm25f(chunk([], ['refund'], 50), ['refund'], s).raw)
    assert.deepEqual(termsOfFrequencies(termFrequencies(['b', 'a'], ['a', 'c'])), ['a', 'b', 'c'])
  })
})

describe('knowledge ranking: the calibrated relevance score', () => {
  const s = statsOf({ refund: 40, card: 300, deliveri: 200 }, 1000)
  const chunk = (terms: string, prose = 1) => ({ terms, head_len: 4, body_len: 100, prose })
  it('scores about 1 for every term once, and a term no chunk holds weighs 2 × idf(df = 1) against it', () => {
    const one = chunk(termFrequencies([], ['refund', 'card']))
    assert.ok(Math.abs(relevanceScorer(['refund', 'card'], s)(one).score - 1) < 0.05)
    const withPizza = relevanceScorer(['refund', 'card', 'pizza'], s)(one).score
    const expected = (idf(40, 1000) + idf(300, 1000)) / (idf(40, 1000) + idf(300, 1000) + 2 * idf(1, 1000))
    assert.ok(Math.abs(withPizza - expected) < 0.05, `${withPizza} vs ${expected}`)
    assert.ok(withPizza < 0.5)
  })
  it('caps one repeated term at 1.5 × its idf, orders by the uncapped BM25F, and multiplies both by the prose factor', () => {
    const repeated = chunk(termFrequencies(['refund', 'refund'], Array(12).fill('refund')))
    const r = relevanceScorer(['refund', 'louvr', 'museum'], s)(repeated)
    assert.ok(r.raw > 2 * idf(40, 1000))
    assert.ok(r.score <= (1.5 * idf(40, 1000)) / (idf(40, 1000) + 4 * idf(1, 1000)) + 1e-9)
    const links = relevanceScorer(['refund'], s)(chunk(termFrequencies([], ['refund']), 0.4))
    const prose = relevanceScorer(['refund'], s)(chunk(termFrequencies([], ['refund'])))
    assert.ok(Math.abs(links.order - 0.4 * prose.order) < 1e-9 && Math.abs(links.score - 0.4 * prose.score) < 1e-9)
  })
  it('does not count words of the question\'s form ("how long") as another subject', () => {
    const c = chunk(termFrequencies([], ['deliveri']))
    assert.equal(relevanceScorer(['long', 'deliveri'], s)(c).score, relevanceScorer(['deliveri'], s)(c).score)
  })
})

describe('knowledge ranking on the database: statistics and candidate selection', () => {
  let h: TestApp
  before(async () => (h = await startApp()))
  after(() => h.close())
  const tenant = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })

  /** The statistics as stored, and as recomputed from the base's index rows: they must be equal. */
  async function statistics(kbId: string) {
    const db = h.app.kernel.db
    const stored = await db.selectFrom('knowledge_terms').select(['term', 'df']).where('knowledge_base_id', '=', kbId).orderBy('term').execute()
    const totals = await db.selectFrom('knowledge_index_stats').select(['chunks', 'head_len', 'body_len']).where('knowledge_base_id', '=', kbId).executeTakeFirst()
    const rows = await db.selectFrom('knowledge_index').select(['terms', 'head_len', 'body_len']).where('knowledge_base_id', '=', kbId).execute()
    const df = new Map<string, number>()
    for (const r of rows) for (const t of termsOfFrequencies(r.terms)) df.set(t, (df.get(t) ?? 0) + 1)
    const recomputed = [...df].sort(([a], [b]) => (a < b ? -1 : 1)).map(([term, n]) => ({ term, df: n }))
    return {
      stored: { terms: stored.map((r) => ({ term: r.term, df: Number(r.df) })), chunks: Number(totals?.chunks ?? 0), body: Number(totals?.body_len ?? 0) },
      recomputed: { terms: recomputed, chunks: rows.length, body: rows.reduce((n, r) => n + Number(r.body_len), 0) },
    }
  }

  it('keeps the per-base statistics in step with the index as documents are added and deleted', async () => {
    const kb = await createBase(h, { name: 'Stats', language: 'en' })
    const a = await addDocument(h, kb.id, { title: 'Refunds', text: 'Refunds reach the original card within fourteen days.' })
    await addDocument(h, kb.id, { title: 'Shipping', text: 'Parcels ship within two working days. Refunds for lost parcels too.' })
    let s = await statistics(kb.id)
    assert.deepEqual(s.stored, s.recomputed)
    assert.equal(s.stored.terms.find((t) => t.term === 'refund')?.df, 2)
    const del = await h.request({ method: 'DELETE', url: `/v2/knowledge/documents/${a.id}` })
    assert.equal(del.statusCode, 200, del.body)
    s = await statistics(kb.id)
    assert.deepEqual(s.stored, s.recomputed)
    assert.equal(s.stored.terms.find((t) => t.term === 'refund')?.df, 1)
    assert.equal(
      s.stored.terms.find((t) => t.term === 'fourteen'),
      undefined,
      'a term no chunk holds any more is gone',
    )
    assert.equal((await h.request({ method: 'DELETE', url: `/v2/knowledge/bases/${kb.id}` })).statusCode, 200)
    s = await statistics(kb.id)
    assert.deepEqual(s.stored, { terms: [], chunks: 0, body: 0 })
  })

  it('finds a chunk holding only the common words of a question (selected together, newest first), and ranks it', async () => {
    const kb = await createBase(h, { name: 'Plans', language: 'en' })
    const answer = await addDocument(h, kb.id, { title: 'Parcel tracking', text: 'Track a parcel from the order page: the tracking link arrives by e-mail.' })
    await addDocument(h, kb.id, { title: 'Returns', text: 'A parcel sent back is refunded once it reaches the warehouse.' })
    const selected = await index.searchCandidates(h.app.kernel.db, tenant(), {
      kbIds: [kb.id],
      plans: [{ newest: ['parcel', 'track'], cap: COMMON_CAP }],
      filters: {},
      limit: 10,
      withVectors: false,
    })
    assert.deepEqual(
      selected.map((c) => c.document_id),
      [answer.id],
    )
    // Another workspace's base is never selected, whatever the plan says.
    const foreign = await index.searchCandidates(
      h.app.kernel.db,
      { workspaceId: h.b.workspaceId, mode: 'live' },
      {
        kbIds: [kb.id],
        plans: [{ any: ['parcel'] }],
        filters: {},
        limit: 10,
        withVectors: false,
      },
    )
    assert.deepEqual(foreign, [])
    const r = await searchOk(h, { query: 'how do I track my parcel?', knowledge_base_ids: [kb.id] })
    assert.equal(r.results[0].citation.document_id, answer.id)
    assert.equal(json(await h.request({ method: 'GET', url: `/v2/knowledge/bases/${kb.id}` })).chunk_count, 2)
  })

  it("plans a search with the terms of the bases' current language, right after the language changed", async () => {
    const kb = await createBase(h, { name: 'Sprache', language: 'en' })
    const doc = await addDocument(h, kb.id, { title: 'Erstattungen', text: 'Rückerstattungen dauern vierzehn Arbeitstage.' })
    // A search service of its own, so nothing else (the gaps job) searches this base through it meanwhile.
    const service = new KnowledgeSearchService(h.app.kernel, h.app.services.knowledge.gaps)
    const question = 'Wie lange dauert eine Rückerstattung?'
    const ask = () => service.retrieve(tenant(), question, { knowledgeBaseIds: [kb.id] })
    // English analysis does not stem the German words alike: nothing found, and the service now expects English.
    assert.deepEqual((await ask()).results, [])
    const chunkOf = async () => json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${doc.id}?include=chunks` })).chunks[0].id
    const before = await chunkOf()
    assert.equal((await h.request({ method: 'PATCH', url: `/v2/knowledge/bases/${kb.id}`, payload: { language: 'de' } })).statusCode, 200)
    const until = Date.now() + 15_000
    while ((await chunkOf()) === before) {
      if (Date.now() > until) assert.fail('the document was not re-processed')
      await new Promise((r) => setTimeout(r, 50))
    }
    // The statement returns the base's new language: the German terms' statistics are read, and the plan finds the chunk.
    const r = await ask()
    assert.deepEqual(r.terms, ['lang', 'dauert', 'ruckerstatt'])
    assert.equal(r.results[0]?.candidate.document_id, doc.id)
  })

  it('a deletion beside a processing job of the same base waits for it, without a deadlock (PostgreSQL)', { skip: ENGINE !== 'postgres' }, async () => {
    const kb = await createBase(h, { name: 'Locks', language: 'en' })
    const doomed = await addDocument(h, kb.id, { title: 'Refunds', text: 'Refunds reach the original card within fourteen days.' })
    const db = h.app.kernel.db
    // A chunk's worth of statistics, written as a processing job writes them: its base's row locked first.
    const chunk = () => {
      const d = new StatsDelta()
      d.add({ terms: termFrequencies(['refund'], ['card', 'refund']), head_len: 1, body_len: 2 }, 1)
      return d
    }
    let deletion: Promise<unknown> = Promise.resolve()
    await db.transaction().execute(async (tx) => {
      assert.ok(await repo.findBase(tx, tenant(), kb.id, { forUpdate: true }))
      // Meanwhile a deletion of another document of the base (the route's path) goes as far as it can.
      deletion = db.transaction().execute((other) => h.app.services.knowledge.documents.removeDocuments(other, tenant(), [doomed.id]))
      await new Promise((r) => setTimeout(r, 300))
      await applyStats(tx, tenant(), kb.id, chunk())
    })
    await deletion
    // Take the made-up chunk back out: the statistics match the index again.
    const undo = chunk()
    undo.chunks = -1
    undo.head = -1
    undo.body = -2
    for (const t of undo.df.keys()) undo.df.set(t, -1)
    await db.transaction().execute((tx) => applyStats(tx, tenant(), kb.id, undo))
    const s = await statistics(kb.id)
    assert.deepEqual(s.stored, s.recomputed)
    assert.equal(s.stored.chunks, 0)
  })

  it('the migration rebuilds frequencies, statistics and base-prefixed tokens of rows indexed before it', async () => {
    const db = h.app.kernel.db
    const kb = await createBase(h, { name: 'Before', language: 'en' })
    await addDocument(h, kb.id, { title: 'Gift cards', text: 'Gift cards never expire and can pay for any order.' })
    await addDocument(h, kb.id, { title: 'Vouchers', text: 'A voucher code is applied at checkout, one per order.' })
    const before = { stats: await statistics(kb.id), rows: await db.selectFrom('knowledge_index').select(['rid', 'terms', 'head_len', 'body_len']).orderBy('rid').execute() }
    const top = (await searchOk(h, { query: 'do gift cards expire', knowledge_base_ids: [kb.id] })).results.map((r: any) => r.citation.chunk_id)
    // The state the migration starts from: distinct terms only, no lengths, no statistics, unprefixed tokens.
    const rids = before.rows.map((r) => Number(r.rid))
    await db.updateTable('knowledge_index').set({ terms: 'card gift', head_len: 0, body_len: 0 }).execute()
    await db.deleteFrom('knowledge_terms').execute()
    await db.deleteFrom('knowledge_index_stats').execute()
    if (ENGINE === 'sqlite') {
      for (const rid of rids) {
        await sql`delete from knowledge_fts where rowid = ${rid}`.execute(db)
        await sql`insert into knowledge_fts (rowid, kb, head, body) values (${rid}, ${kb.id}, 'gift card', 'gift card')`.execute(db)
      }
    } else await sql`update knowledge_index set tsv = 'gift card'::tsvector`.execute(db)
    await backfillStats(db, ENGINE)
    assert.deepEqual(await statistics(kb.id), before.stats)
    assert.deepEqual(await db.selectFrom('knowledge_index').select(['rid', 'terms', 'head_len', 'body_len']).orderBy('rid').execute(), before.rows)
    const again = (await searchOk(h, { query: 'do gift cards expire', knowledge_base_ids: [kb.id] })).results.map((r: any) => r.citation.chunk_id)
    assert.deepEqual(again, top)
  })
})
