import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { hashKey } from '../../../../kernel/auth/api-keys.js'
import { assertProblem, createTestApp, events, json, ok, type TestApp } from '../../../../../test/helpers.js'
import { freePort } from '../../../../../test/spawn.js'

const sandboxGet = (h: TestApp, url: string, key: string) => h.request({ method: 'GET', url: `/sandbox/v2${url}`, key })
const create = (h: TestApp, payload: object, key?: string, headers: Record<string, string> = {}) =>
  h.request({ method: 'POST', url: '/v2/sandbox-workspaces', payload, headers, ...(key ? { key } : {}) })

/** Every item of a list, following next_cursor. */
async function all(h: TestApp, url: string, key: string): Promise<any[]> {
  const out: any[] = []
  let cursor: string | null = null
  do {
    const page: any = await ok(sandboxGet(h, `${url}${url.includes('?') ? '&' : '?'}limit=100${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`, key))
    out.push(...page.data)
    cursor = page.next_cursor
  } while (cursor)
  return out
}

describe('sandbox workspaces: createSandboxWorkspace and listSandboxWorkspaces', () => {
  let h: TestApp
  let made: any
  before(async () => {
    // Listening on PUBLIC_URL, so the sample webhook endpoint's deliveries reach this server's own Playground.
    const port = await freePort()
    h = await createTestApp({ env: { PUBLIC_URL: `http://127.0.0.1:${port}` } })
    await h.app.http.listen({ port, host: '127.0.0.1' })
    made = await ok(create(h, { name: 'Acme playground' }), 202)
    await h.drainJobs()
  })
  after(() => h.close())

  it('answers 202 seeding with the sandbox’s own workspace, its base URL and its test key', async () => {
    assert.match(made.id, /^sbx_[0-9A-Z]{26}$/)
    assert.equal(made.object, 'sandbox_workspace')
    assert.equal(made.name, 'Acme playground')
    assert.equal(made.status, 'seeding')
    assert.notEqual(made.workspace_id, h.a.workspaceId)
    assert.equal(made.base_url, `${h.config.publicUrl}/sandbox/v2`)
    assert.match(made.test_key, /^svc_test_/)
    assert.equal(made.api_key.prefix, made.test_key.slice(0, 13))
    assert.deepEqual(made.seeded.conversations, 0)
    assert.match(made.playground_url, /\/sandbox\/v2\/webhooks\/playground\/[A-Za-z0-9_-]{22,64}$/)
    const current = await ok(sandboxGet(h, '/workspaces/current', made.test_key))
    assert.equal(current.id, made.workspace_id)
    assert.equal(current.name, 'Acme playground')
  })

  it('seeds realistic sample data in one job, all of it visible through the public API with the returned key', async () => {
    const list = await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces' }))
    const sbx = list.data.find((s: any) => s.id === made.id)
    assert.equal(sbx.status, 'ready', JSON.stringify(sbx))
    assert.ok(sbx.ready_at)
    assert.deepEqual(sbx.seeded, { webhook_endpoints: 1, tags: 4, knowledge_bases: 1, knowledge_documents: 3, bots: 1, agents: 1, leads: 3, conversations: 3, messages: 6 })
    assert.ok((await events(h, 'sandbox_workspace.ready')).some((e) => e.id === made.id && !('test_key' in e)))

    const key = made.test_key
    const conversations = await all(h, '/inbox/conversations', key)
    assert.equal(conversations.length, 3)
    assert.ok(
      conversations.every((c) => c.contact.name && c.subject && c.tags.length > 0),
      JSON.stringify(conversations),
    )
    for (const c of conversations) {
      const messages = await all(h, `/inbox/conversations/${c.id}/messages`, key)
      assert.deepEqual(messages.map((m) => m.direction).sort(), ['inbound', 'outbound'])
    }
    assert.deepEqual((await all(h, '/inbox/tags', key)).map((t) => t.name).sort(), ['billing', 'returns', 'shipping', 'vip'])

    const [kb, ...otherKbs] = await all(h, '/knowledge/bases', key)
    assert.equal(otherKbs.length, 0)
    const documents = await all(h, `/knowledge/bases/${kb.id}/documents`, key)
    assert.equal(documents.length, 3)
    assert.ok(
      documents.every((d) => d.status === 'ready'),
      'the documents were processed by the knowledge module’s own job',
    )
    const search = await ok(h.request({ method: 'POST', url: '/sandbox/v2/knowledge/search', key, payload: { query: 'how long do refunds take' } }))
    assert.match(JSON.stringify(search), /5 business days/)

    const [bot] = await all(h, '/bots', key)
    assert.equal(bot.status, 'published')
    assert.deepEqual(bot.knowledge_base_ids, [kb.id])
    const [agent] = await all(h, '/agents', key)
    assert.deepEqual(agent.knowledge_base_ids, [kb.id])
    const leads = await all(h, '/leads', key)
    assert.equal(leads.length, 3)
    assert.ok(
      leads.some((l) => l.source === 'conversation' && l.name === 'Sofia Rossi'),
      'one lead from a conversation',
    )

    const [endpoint] = await all(h, '/webhooks/endpoints', key)
    assert.equal(endpoint.url, made.playground_url)
  })

  it('the sample webhook endpoint delivers the sandbox’s events to the Playground', async () => {
    const url = new URL(made.playground_url)
    let captures: any[] = []
    for (let i = 0; i < 50 && captures.length === 0; i++) {
      await h.drainJobs()
      const page = json(await h.request({ method: 'GET', url: `${url.pathname}?limit=100`, key: null }))
      captures = page.data.filter((c: any) => c.method === 'POST')
      if (captures.length === 0) await new Promise((r) => setTimeout(r, 100))
    }
    assert.ok(captures.length > 0, 'deliveries captured')
    assert.ok(
      captures.some((c) => /"type":"conversation\.created"/.test(c.body)),
      'a seeded conversation’s event',
    )
  })

  it('never shows the key again: not in the list, not at rest (only its hash)', async () => {
    const res = await h.request({ method: 'GET', url: '/v2/sandbox-workspaces' })
    assert.ok(!res.body.includes(made.test_key))
    assert.ok(!('test_key' in json(res).data[0]))
    const stored = await h.app.kernel.db.selectFrom('api_keys').selectAll().where('id', '=', made.api_key.id).executeTakeFirstOrThrow()
    assert.equal(stored.key_hash, hashKey(made.test_key))
    assert.equal(stored.workspace_id, made.workspace_id)
    assert.equal(stored.mode, 'test')
    const row = await h.app.kernel.db.selectFrom('developer_sandbox_workspaces').selectAll().where('id', '=', made.id).executeTakeFirstOrThrow()
    assert.ok(!JSON.stringify(row).includes(made.test_key))
    assert.ok(!JSON.stringify(row).includes(new URL(made.playground_url).pathname.split('/').pop()!), 'the Playground token is sealed')
  })

  it('another workspace sees neither the sandbox nor its data, and the sandbox key sees nothing of its parent', async () => {
    const other = await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces', key: h.b.live }))
    assert.deepEqual(other.data, [])
    const sandboxConversations = new Set((await all(h, '/inbox/conversations', made.test_key)).map((c) => c.id))
    for (const key of [h.b.test, h.a.test]) {
      const seen = await all(h, '/inbox/conversations', key)
      assert.ok(seen.every((c) => !sandboxConversations.has(c.id)))
    }
    const parentConversation = await ok(h.request({ method: 'POST', url: '/sandbox/v2/inbox/conversations', key: h.a.test, payload: { subject: 'parent only' } }), 201)
    assertProblem(await sandboxGet(h, `/inbox/conversations/${parentConversation.id}`, made.test_key), 404)
    assertProblem(await h.request({ method: 'GET', url: `/v2/workspaces/${made.workspace_id}`, key: h.b.live }), 404)
  })

  it('needs a live key of a workspace that is not itself a sandbox', async () => {
    assertProblem(await h.request({ method: 'POST', url: '/sandbox/v2/sandbox-workspaces', key: h.a.test, payload: {} }), 403, 'sandbox_requires_live_key')
    assertProblem(await h.request({ method: 'POST', url: '/sandbox/v2/sandbox-workspaces', key: made.test_key, payload: {} }), 403, 'sandbox_requires_live_key')
  })

  it('gives the sandbox key the caller’s scopes, never more; a key without write is refused', async () => {
    const writer = await h.key(['write'])
    const s = await ok(create(h, {}, writer), 202)
    assert.deepEqual(s.api_key.scopes, ['write'])
    assert.equal(s.name, 'Sandbox of Acme')
    assertProblem(await create(h, {}, await h.key(['read'])), 403, 'insufficient_scope')
    assertProblem(await create(h, { name: '' }), 422, 'validation_failed')
    assertProblem(await create(h, { region: 'eu' }), 422, 'validation_failed')
  })

  it('an Idempotency-Key replays the same sandbox (and key) instead of making a second workspace', async () => {
    const before = await h.app.kernel.db.selectFrom('workspaces').select('id').execute()
    const first = await ok(create(h, { name: 'Once' }, undefined, { 'idempotency-key': 'sbx-once' }), 202)
    const again = await ok(create(h, { name: 'Once' }, undefined, { 'idempotency-key': 'sbx-once' }), 202)
    assert.equal(again.id, first.id)
    assert.equal(again.test_key, first.test_key)
    const afterRows = await h.app.kernel.db.selectFrom('workspaces').select('id').execute()
    assert.equal(afterRows.length, before.length + 1)
  })

  it('lists newest first, filters by status, and pages with cursors', async () => {
    // Seeding is a job (with its document-processing jobs); a step retried after a transient failure
    // (a busy database under a loaded test run) is due a little later: wait for every sandbox to settle.
    for (const deadline = Date.now() + 30_000; Date.now() < deadline; await new Promise((r) => setTimeout(r, 250))) {
      await h.drainJobs()
      if ((await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces?status=seeding&limit=100' }))).data.length === 0) break
    }
    const page = await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces?limit=1' }))
    assert.equal(page.data.length, 1)
    assert.equal(page.has_more, true)
    const next = await ok(h.request({ method: 'GET', url: `/v2/sandbox-workspaces?limit=1&cursor=${encodeURIComponent(page.next_cursor)}` }))
    assert.ok(next.data[0].id < page.data[0].id)
    const ready = await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces?status=ready&limit=100' }))
    assert.ok(ready.data.length >= 3 && ready.data.every((s: any) => s.status === 'ready'))
    const failed = await ok(h.request({ method: 'GET', url: '/v2/sandbox-workspaces?status=failed' }))
    assert.deepEqual(failed.data, [])
  })
})
