// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import pino from 'pino'
import { loadConfig } from '../../config.js'
import { createAiEngine, fillPlaceholders, placeholdersOf, type AiSource } from './ai.js'
import { rankSources } from './ranker.js'

const sources: AiSource[] = [
  { kind: 'template', id: 'tpl_price', title: 'Pricing', text: 'The Pro plan costs 49 EUR per seat and month.' },
  { kind: 'template', id: 'tpl_refund', title: 'Refunds', text: 'We refund any purchase within 14 days.' },
  { kind: 'passage', id: 'psg_hours', title: 'Opening hours', text: 'Support answers Monday to Friday, 9 to 17 CET.' },
]

describe('ai: ranking and the builtin engine', () => {
  it('ranks by BM25 relevance across word forms ("prices" meets "Pricing")', () => {
    const ranked = rankSources('What are your prices for the pro plan?', sources)
    assert.equal(ranked[0].source.id, 'tpl_price')
    assert.ok(ranked[0].coverage > 0.5)
    assert.equal(rankSources('when is support open on monday', sources)[0].source.id, 'psg_hours')
    assert.deepEqual(rankSources('hello how are you', sources), [])
  })

  it('fills known placeholders and leaves unknown or empty ones visible', () => {
    assert.deepEqual(placeholdersOf('Hi {{contact.name}}, re {{ conversation.subject }} {{contact.name}}'), ['contact.name', 'conversation.subject'])
    assert.equal(fillPlaceholders('Hi {{contact.name}} {{contact.phone}}', { 'contact.name': 'Ada', 'contact.phone': null }), 'Hi Ada {{contact.phone}}')
  })

  it('builtin: is deterministic, cites what it used, and admits when nothing matches', async () => {
    const engine = createAiEngine(loadConfig({}).ai, pino({ level: 'silent' }))
    assert.equal(engine.provider, 'builtin')
    const req = { task: 'Reply.', transcript: [{ role: 'customer' as const, text: 'Can I get a refund for my purchase?', id: 'msg_1' }], sources }
    const a = await engine.generate(req)
    assert.deepEqual(await engine.generate(req), a)
    assert.equal(a.content, 'We refund any purchase within 14 days.')
    assert.equal(a.sources[0].id, 'tpl_refund')
    assert.deepEqual(a.sources.at(-1), { kind: 'message', id: 'msg_1', title: null, excerpt: 'Can I get a refund for my purchase?', score: 1 })
    const none = await engine.generate({ ...req, transcript: [{ role: 'customer', text: 'Is the parrot asleep?' }] })
    assert.equal(none.confidence, 0)
    assert.equal(none.grounded, false)
  })

  it('openai: is degraded without a key for the default endpoint, ok with a base URL', () => {
    const log = pino({ level: 'silent' })
    assert.equal(createAiEngine(loadConfig({ AI_PROVIDER: 'openai' }).ai, log).check().status, 'degraded')
    assert.equal(createAiEngine(loadConfig({ AI_PROVIDER: 'openai', AI_BASE_URL: 'http://127.0.0.1:1/v1' }).ai, log).check().status, 'ok')
  })
})
