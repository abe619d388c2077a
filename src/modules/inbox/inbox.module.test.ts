import assert from 'node:assert/strict'
import { readFileSync } from 'node:fs'
import { after, before, describe, it } from 'node:test'
import { createTestApp, json, type TestApp } from '../../../test/helpers.js'
import { inboxModule } from './inbox.module.js'

const SPEC = readFileSync(new URL('../../../spec/operations.tsv', import.meta.url), 'utf8')
  .trim()
  .split('\n')
  .slice(1)
  .map((line) => line.split('\t'))
  .filter((cols) => cols[4] === 'inbox')
  .map(([method, path, operationId, scope]) => ({ method, path, operationId, scope }))

describe('inbox module', () => {
  let h: TestApp
  before(async () => (h = await createTestApp()))
  after(() => h.close())

  it('has exactly the 18 inbox operations of the spec, with their method, path and scope', () => {
    assert.equal(SPEC.length, 18)
    const ours = inboxModule.routes.map((r) => ({ method: r.method, path: r.url, operationId: r.operationId, scope: r.scope }))
    const key = (o: { operationId: string }) => o.operationId
    assert.deepEqual(
      [...ours].sort((a, b) => key(a).localeCompare(key(b))),
      [...SPEC].sort((a, b) => key(a).localeCompare(key(b))),
    )
    for (const r of inboxModule.routes) assert.equal(r.module, 'inbox')
  })

  it('publishes every operation in openapi.json with a reference page', async () => {
    const doc = json(await h.request({ method: 'GET', url: '/v2/openapi.json', key: null }))
    for (const op of SPEC) {
      const o = doc.paths[op.path]?.[op.method.toLowerCase()]
      assert.ok(o, `${op.method} ${op.path} missing`)
      assert.equal(o.operationId, op.operationId)
      assert.equal(o['x-required-scope'], op.scope)
      assert.ok(o.responses['401'] && o.responses['422'], op.operationId)
      const page = await h.request({ method: 'GET', url: `/v2/api-docs/inbox/${op.operationId}`, key: null })
      assert.equal(page.statusCode, 200, op.operationId)
    }
  })

  it('declares its nine event types in the catalog with schema and example', () => {
    const types = h.app.kernel.events
      .catalog()
      .filter((t) => t.module === 'inbox')
      .map((t) => t.type)
    assert.deepEqual(types.sort(), [
      'ai_draft.created',
      'conversation.assigned',
      'conversation.created',
      'conversation.deleted',
      'conversation.reopened',
      'conversation.resolved',
      'conversation.updated',
      'message.created',
      'message.updated',
    ])
  })

  it('reports its health: the conversations table answers and the AI engine is configured', async () => {
    const health = await inboxModule.health!(h.app.kernel, h.app.services)
    assert.equal(health.status, 'ok')
    assert.equal(health.ai_provider, 'builtin')
    const r = json(await h.request({ method: 'GET', url: '/v2/health' }))
    assert.equal(r.modules.inbox.status, 'ok', JSON.stringify(r))
    assert.equal(r.modules.inbox.ai_provider, 'builtin')
  })

  it('reports messages and AI drafts per day in usage', async () => {
    const c = json(await h.request({ method: 'POST', url: '/v2/inbox/conversations', payload: { message: { content: 'hi' } } }))
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/messages`, payload: { content: 'hello' } })
    await h.request({ method: 'POST', url: `/v2/inbox/conversations/${c.id}/ai-draft` })
    const today = new Date().toISOString().slice(0, 10)
    const usage = await inboxModule.usage!(h.app.kernel, { workspaceId: h.a.workspaceId, mode: 'live' }, today, today)
    assert.deepEqual(
      usage.sort((a, b) => a.metric.localeCompare(b.metric)),
      [
        { day: today, metric: 'ai_drafts', count: 1 },
        { day: today, metric: 'messages', count: 2 },
      ],
    )
    assert.deepEqual(await inboxModule.usage!(h.app.kernel, { workspaceId: h.a.workspaceId, mode: 'test' }, today, today), [])
  })
})
