import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../../test/helpers.js'
import { assertAuthRequired, assertProblem, createConversation, createTemplate, eventsFor, sendMessage, startFakeOpenAi } from '../inbox.testkit.js'

const draft = (h: TestApp, id: string, payload?: Record<string, unknown>) => h.request({ method: 'POST', url: `/v2/inbox/conversations/${id}/ai-draft`, ...(payload ? { payload } : {}) })

describe('createAiDraft (POST /inbox/conversations/{id}/ai-draft) with the builtin engine', () => {
  let h: TestApp
  let pricing: any
  before(async () => {
    h = await createTestApp()
    pricing = await createTemplate(h, { name: 'Pricing', content: 'Hi {{contact.name}}, the Pro plan costs 49 EUR per seat and month, billed yearly.' })
    await createTemplate(h, { name: 'Refunds', content: 'We refund any purchase within 14 days, no questions asked.' })
    await createTemplate(h, { name: 'Opening hours', content: 'Our support team answers Monday to Friday, 9:00 to 17:00 CET.' })
  })
  after(() => h.close())

  it('answers with the matching template, placeholders filled, citing the template and the message', async () => {
    const c = await createConversation(h, { contact: { name: 'Ada' }, message: { content: 'Hello! How much does the Pro plan cost per seat?' } })
    const r = await draft(h, c.id)
    assert.equal(r.statusCode, 201, r.body)
    const d = json(r)
    assert.match(d.id, /^drf_[0-9A-Z]{26}$/)
    assert.equal(d.content, 'Hi Ada, the Pro plan costs 49 EUR per seat and month, billed yearly.')
    assert.equal(d.provider, 'builtin')
    assert.equal(d.grounded, true)
    assert.ok(d.confidence > 0.5 && d.confidence <= 1, String(d.confidence))
    assert.equal(d.sources[0].kind, 'template')
    assert.equal(d.sources[0].id, pricing.id)
    assert.ok(d.sources.some((s: { kind: string }) => s.kind === 'message'))
    assert.deepEqual(await eventsFor(h, 'ai_draft.created', d.id), [d])
    // A draft is never sent: the conversation still has just the one message.
    const msgs = json(await h.request({ method: 'GET', url: `/v2/inbox/conversations/${c.id}/messages` }))
    assert.equal(msgs.data.length, 1)
  })

  it('picks the template about the question asked (refunds, not pricing)', async () => {
    const c = await createConversation(h, { message: { content: 'I want a refund for my purchase, please.' } })
    const d = json(await draft(h, c.id))
    assert.equal(d.sources[0].title, 'Refunds')
  })

  it('says so with confidence 0 when nothing matches, instead of inventing an answer', async () => {
    const c = await createConversation(h, { message: { content: 'Is the parrot sleeping?' } })
    const d = json(await draft(h, c.id))
    assert.equal(d.confidence, 0)
    assert.equal(d.grounded, false)
    assert.deepEqual(d.sources, [])
    assert.match(d.content, /no reply template/i)
    const empty = json(await draft(h, (await createConversation(h)).id))
    assert.equal(empty.confidence, 0)
  })

  it('rejects unknown fields with 422 and answers 404 across workspaces', async () => {
    const c = await createConversation(h)
    assertProblem(await draft(h, c.id, { prompt: 'x' }), 422, 'validation_failed')
    assertProblem(await draft(h, 'conv_01JD0000000000000000000000'), 404, 'resource_not_found')
    assertProblem(await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/ai-draft`, key: h.b.live }), 404, 'resource_not_found')
  })

  it('counts drafts and messages in the workspace usage report', async () => {
    const today = new Date().toISOString().slice(0, 10)
    const u = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.a.workspaceId}/usage?from=${today}&to=${today}` }))
    assert.ok(u.totals.ai_drafts >= 4, JSON.stringify(u.totals))
    assert.ok(u.totals.messages >= 3, JSON.stringify(u.totals))
    assert.equal(u.days[0].metrics.ai_drafts, u.totals.ai_drafts)
    const b = json(await h.request({ method: 'GET', url: `/v2/workspaces/${h.b.workspaceId}/usage?from=${today}&to=${today}`, key: h.b.live }))
    assert.equal(b.totals.ai_drafts ?? 0, 0)
  })

  it('requires a key with messages:write', async () => {
    const c = await createConversation(h)
    await assertAuthRequired(h, { method: 'POST', url: `/v2/inbox/conversations/${c.id}/ai-draft`, payload: {} })
  })
})

describe('createAiDraft with AI_PROVIDER=openai', () => {
  it("returns the server's text, having sent the transcript and the matching template", async () => {
    const server = await startFakeOpenAi({ mode: 'ok', text: 'Hi Ada, our Pro plan is 49 EUR.' })
    const h = await createTestApp({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: server.baseUrl, AI_MODEL: 'test-model', AI_TIMEOUT_MS: '2000' } })
    try {
      const tpl = await createTemplate(h, { name: 'Pricing', content: 'The Pro plan costs 49 EUR per seat.' })
      const c = await createConversation(h, { contact: { name: 'Ada' }, message: { content: 'What does the Pro plan cost?' } })
      const r = await draft(h, c.id, { instructions: 'Be brief.' })
      assert.equal(r.statusCode, 201, r.body)
      const d = json(r)
      assert.equal(d.content, 'Hi Ada, our Pro plan is 49 EUR.')
      assert.equal(d.provider, 'openai')
      assert.equal(d.model, 'test-model')
      assert.equal(d.confidence, null)
      assert.equal(d.sources[0].id, tpl.id)
      const sent = server.requests[0].body
      assert.equal(sent.model, 'test-model')
      assert.equal(sent.messages[0].role, 'system')
      assert.match(sent.messages[0].content, /49 EUR per seat/)
      assert.match(sent.messages[0].content, /Be brief/)
      assert.deepEqual(sent.messages.at(-1), { role: 'user', content: 'What does the Pro plan cost?' })
    } finally {
      await h.close()
      await server.close()
    }
  })

  it('hands the model the sources chosen by the conversation: the latest question, not an earlier topic', async () => {
    const server = await startFakeOpenAi({ mode: 'ok', text: 'We are open Monday to Friday.' })
    const h = await createTestApp({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: server.baseUrl, AI_TIMEOUT_MS: '2000' } })
    try {
      const hours = await createTemplate(h, { name: 'Opening hours', content: 'Our support team answers Monday to Friday, 9:00 to 17:00 CET.' })
      await createTemplate(h, { name: 'Refunds', content: 'We refund any purchase within 14 days, no questions asked.' })
      const c = await createConversation(h, { message: { content: 'I want a refund for my purchase, please.' } })
      await sendMessage(h, c.id, { content: 'Done, the refund is on its way.', direction: 'outbound' })
      await sendMessage(h, c.id, { content: 'Thanks! And what are your opening hours on Friday?', direction: 'inbound' })
      const d = json(await draft(h, c.id))
      assert.equal(d.sources[0].id, hours.id, JSON.stringify(d.sources))
      assert.equal(d.grounded, true)
      assert.match(server.requests[0].body.messages[0].content, /\[1\] Opening hours: /)
    } finally {
      await h.close()
      await server.close()
    }
  })

  it('answers 504 ai_provider_timeout within AI_TIMEOUT_MS when the server hangs, and stores no draft', async () => {
    const server = await startFakeOpenAi({ mode: 'hang' })
    const h = await createTestApp({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: server.baseUrl, AI_TIMEOUT_MS: '500' } })
    try {
      const c = await createConversation(h, { message: { content: 'hello?' } })
      const started = Date.now()
      const r = await draft(h, c.id)
      const took = Date.now() - started
      assertProblem(r, 504, 'ai_provider_timeout')
      assert.ok(took >= 450 && took < 2000, `took ${took} ms`)
      assert.equal(server.requests.length, 1, 'no retries')
      assert.deepEqual(await h.app.kernel.db.selectFrom('inbox_ai_drafts').select('id').execute(), [])
    } finally {
      await h.close()
      await server.close()
    }
  })

  it('answers 503 ai_provider_unavailable quickly when nothing listens at AI_BASE_URL', async () => {
    const server = await startFakeOpenAi({ mode: 'ok' })
    await server.close()
    const h = await createTestApp({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: server.baseUrl, AI_TIMEOUT_MS: '500' } })
    try {
      const c = await createConversation(h, { message: { content: 'hello?' } })
      const started = Date.now()
      const r = await draft(h, c.id)
      assertProblem(r, 503, 'ai_provider_unavailable')
      assert.ok(Date.now() - started < 2000)
    } finally {
      await h.close()
    }
  })

  it('answers 502 ai_provider_error when the server fails, without retrying', async () => {
    const server = await startFakeOpenAi({ mode: 'error', status: 500 })
    const h = await createTestApp({ env: { AI_PROVIDER: 'openai', AI_BASE_URL: server.baseUrl, AI_TIMEOUT_MS: '1000' } })
    try {
      const c = await createConversation(h, { message: { content: 'hello?' } })
      const r = await draft(h, c.id)
      assertProblem(r, 502, 'ai_provider_error')
      assert.equal(server.requests.length, 1)
      assert.doesNotMatch(json(r).detail, /exploded/)
    } finally {
      await h.close()
      await server.close()
    }
  })
})

describe('createAiDraft with knowledge (passages through services.knowledge)', () => {
  let h: TestApp
  before(async () => {
    h = await createTestApp()
    h.app.kernel.jobs.start()
  })
  after(() => h.close())

  it('cites the knowledge passage that answers the customer, like a search result', async () => {
    const kb = json(await h.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Help center' } }))
    const up = json(
      await h.request({
        method: 'POST',
        url: `/v2/knowledge/bases/${kb.id}/documents`,
        payload: { title: 'Warranty', text: 'Every device carries a two-year warranty covering manufacturing defects.' },
      }),
    )
    for (let i = 0; i < 300; i++) {
      if (json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${up.id}` })).status === 'ready') break
      await new Promise((r) => setTimeout(r, 50))
    }
    const c = await createConversation(h, { message: { content: 'What warranty does my device have?' } })
    const d = json(await draft(h, c.id))
    assert.equal(d.grounded, true)
    const passage = d.sources.find((s: { kind: string }) => s.kind === 'passage')
    assert.ok(passage, JSON.stringify(d.sources))
    assert.match(passage.id, /^chk_/)
    assert.equal(passage.title, 'Warranty')
    assert.match(d.content, /two-year warranty/)
    // The same passage a search returns for the question.
    const s = json(await h.request({ method: 'POST', url: '/v2/knowledge/search', payload: { query: 'What warranty does my device have?' } }))
    assert.equal(s.results[0].citation.chunk_id, passage.id)
    assert.equal(passage.score, s.results[0].score, 'cited at its calibrated search score')
    // A passage below the knowledge module's "answered" does not ground a draft: one shared word is not an answer.
    const poor = await createConversation(h, { message: { content: 'Does the warranty pay for water damage after my swimming pool party?' } })
    const weak = json(await draft(h, poor.id))
    assert.equal(weak.grounded, false, JSON.stringify(weak))
    assert.equal(weak.confidence, 0)
  })
})

describe('createAiDraft chooses by the conversation: templates and passages on one scale', () => {
  const EMAIL = [
    'Hi there,',
    '',
    'I ordered a pair of wireless headphones from your shop last month (order #48213) and the left side stopped working after a week. ' +
      'I sent them back with the prepaid label on the 3rd and the tracking says you received them.',
    "When will I get my refund? It has been ten days and I haven't seen the money on my card yet.",
    '',
    'Thanks,',
    'Maria Lopez',
    'Sent from my phone',
  ].join('\n')
  const INDEX = [
    'Help centre',
    '[Shipping and delivery](https://help.example.com/shipping)',
    '[Returns and refunds](https://help.example.com/refunds)',
    '[Orders and tracking](https://help.example.com/orders)',
    '[Payment methods and cards](https://help.example.com/payments)',
    '[Refund status and money back](https://help.example.com/refund-status)',
    '[Warranty and repairs](https://help.example.com/warranty)',
    '[Contact us](https://help.example.com/contact)',
  ].join('\n')
  let h: TestApp
  let refund: any
  let hours: any
  let refundDoc: any
  let indexDoc: any
  const ready = async (id: string) => {
    for (let i = 0; i < 300; i++) {
      if (json(await h.request({ method: 'GET', url: `/v2/knowledge/documents/${id}` })).status === 'ready') return
      await new Promise((r) => setTimeout(r, 50))
    }
    assert.fail(`document ${id} never became ready`)
  }
  const add = async (kb: string, title: string, text: string) => json(await h.request({ method: 'POST', url: `/v2/knowledge/bases/${kb}/documents`, payload: { title, text } }))

  before(async () => {
    h = await createTestApp()
    h.app.kernel.jobs.start()
    refund = await createTemplate(h, {
      name: 'Refund timing',
      content: 'Hi {{contact.name}}, once your return reaches us we refund the original payment method within 3 business days; your bank may take 5 to 10 days to show it.',
    })
    hours = await createTemplate(h, { name: 'Opening hours', content: 'Our support team answers Monday to Friday, 9:00 to 17:00 CET.' })
    await createTemplate(h, { name: 'Pricing', content: 'The Pro plan costs 49 EUR per seat and month, billed yearly.' })
    const kb = json(await h.request({ method: 'POST', url: '/v2/knowledge/bases', payload: { name: 'Help centre' } }))
    indexDoc = await add(kb.id, 'Help centre', INDEX)
    refundDoc = await add(
      kb.id,
      'How refunds work',
      'When a returned item arrives at our warehouse we inspect it and refund your original payment method. The money usually shows on your card within 5 to 10 business days.',
    )
    await ready(indexDoc.id)
    await ready(refundDoc.id)
  })
  after(() => h.close())

  const isIndex = (s: { kind: string; title: string | null }) => s.kind === 'passage' && s.title === 'Help centre'

  it('drafts a realistic refund e-mail (greeting, order number, signature) from the refund template or passage, never the index page', async () => {
    const c = await createConversation(h, { contact: { name: 'Maria' }, message: { content: EMAIL } })
    const d = json(await draft(h, c.id))
    assert.equal(d.grounded, true, JSON.stringify(d))
    const top = d.sources[0]
    assert.ok(top.id === refund.id || (top.kind === 'passage' && top.title === 'How refunds work'), JSON.stringify(d.sources))
    assert.ok(!d.sources.some(isIndex), JSON.stringify(d.sources))
    assert.doesNotMatch(d.content, /\]\(https?:/)
    assert.match(d.content, /refund/i)
    assert.ok(d.confidence >= 0.5, String(d.confidence))
  })

  it('still drafts a one-line question from the matching template', async () => {
    const c = await createConversation(h, { contact: { name: 'Ada' }, message: { content: 'How long does a refund take?' } })
    const d = json(await draft(h, c.id))
    assert.equal(d.grounded, true)
    assert.ok(d.sources[0].id === refund.id || d.sources[0].title === 'How refunds work', JSON.stringify(d.sources))
    assert.ok(!d.sources.some(isIndex))
  })

  it('drafts for the latest customer message when it changes the topic', async () => {
    const c = await createConversation(h, { message: { content: EMAIL } })
    await sendMessage(h, c.id, { content: 'Your refund was issued today.', direction: 'outbound' })
    await sendMessage(h, c.id, { content: 'Thanks! Another thing: what are your opening hours on Friday?', direction: 'inbound' })
    const d = json(await draft(h, c.id))
    assert.equal(d.sources[0].id, hours.id, JSON.stringify(d.sources))
    assert.equal(d.content, 'Our support team answers Monday to Friday, 9:00 to 17:00 CET.')
  })
})
