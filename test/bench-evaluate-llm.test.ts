import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { evaluateLlm, formatLlmEval } from '../bench/knowledge/evaluate-llm.js'
import { startChatServer } from '../src/kernel/ai/ai.testkit.js'
import { ENGINE } from './helpers.js'

// The OpenAI-compatible evaluation (bench/knowledge/evaluate-llm.ts) in its smoke mode, against a local
// imitation of a chat-completions server: it answers from the first passage it is given, citing it, and
// says it does not know when given none. The numbers are the service's own (retrieval, grounding,
// hand-off); this checks that the evaluation drives every question through the model and counts right.
describe('bench: the knowledge evaluation through an OpenAI-compatible model (smoke)', () => {
  let chat: Awaited<ReturnType<typeof startChatServer>>
  before(async () => {
    chat = await startChatServer((body) => {
      const system = String(body.messages[0]?.content ?? '')
      const first = /\n\[1\] ([^\n]{1,160})/.exec(system)?.[1]
      return first ? { text: `${first.replace(/\[\d+\]/g, '')} [1]` } : { text: 'I do not know the answer to that.' }
    })
  })
  after(() => chat.close())

  it('sends each question to the model as a bot test exchange and reports answered, handed off and grounded', { timeout: 240_000 }, async () => {
    const r = await evaluateLlm({ baseUrl: chat.baseUrl, model: 'bench-model', engine: ENGINE, small: true, timeoutMs: 5000 })
    assert.equal(r.answerable.questions, 8)
    assert.equal(r.offTopic.questions, 2)
    assert.ok(chat.requests.length >= 10, String(chat.requests.length))
    assert.ok(chat.requests.every((b) => b.model === 'bench-model'))
    for (const g of [r.answerable, r.offTopic]) {
      assert.equal(g.answered + g.handedOff, g.questions)
      assert.ok(g.grounded <= g.questions && g.citedRight <= g.answered)
    }
    assert.ok(r.answerable.citedRight >= 1, JSON.stringify(r))
    assert.ok(r.p95 >= r.p50 && r.p50 > 0)
    const table = formatLlmEval(r)
    assert.match(table, /\| answerable \| 8 \|/)
    assert.match(table, /Model bench-model/)
  })
})
