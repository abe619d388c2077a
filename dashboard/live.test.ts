import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { byActivity, matchesQuery, type LiveConversation } from './src/pages/inbox/live-rules.js'
import { mergeFirstPage, typeMatches } from './src/ui/live-rules.js'

// The live dashboard's rules that need no browser (the browser tests: dashboard/e2e/inbox-live.e2e.test.ts, live-pages.e2e.test.ts).
const conv = (over: Partial<LiveConversation>): LiveConversation =>
  ({ id: 'conv_1', status: 'open', channel: 'chat', tags: ['VIP'], assignee_id: null, unread_count: 0, created_at: '2026-11-01T00:00:00.000Z', last_message_at: null, ...over }) as LiveConversation

describe('dashboard live (pure rules)', { skip: process.env.TEST_DB === 'postgres' && 'no database involved: checked on SQLite' }, () => {
  it('matches event types exactly, by a prefix ending in *, or all with *', () => {
    assert.equal(typeMatches(['message.created'], 'message.created'), true)
    assert.equal(typeMatches(['message.created'], 'message.updated'), false)
    assert.equal(typeMatches(['conversation.*'], 'conversation.assigned'), true)
    assert.equal(typeMatches(['conversation.*'], 'conversations.x'), false)
    assert.equal(typeMatches(['*'], 'agent_approval.created'), true)
    assert.equal(typeMatches([], 'message.created'), false)
  })

  it('merges a first page read again: new rows on top, shown rows replaced, rows further down kept', () => {
    const rows = [
      { id: 'b', v: 1 },
      { id: 'a', v: 1 },
      { id: 'old', v: 1 },
    ]
    assert.deepEqual(
      mergeFirstPage(rows, [
        { id: 'c', v: 2 },
        { id: 'b', v: 2 },
        { id: 'a', v: 1 },
      ]),
      [
        { id: 'c', v: 2 },
        { id: 'b', v: 2 },
        { id: 'a', v: 1 },
        { id: 'old', v: 1 },
      ],
    )
  })

  it('judges whether a conversation belongs in a list by its filters, and says when it cannot (a search)', () => {
    const me = 'mem_me'
    assert.equal(matchesQuery(conv({}), { status: 'open', channel: 'chat', tag: 'vip', limit: 20 }, me), true)
    assert.equal(matchesQuery(conv({ status: 'resolved' }), { status: 'open' }, me), false)
    assert.equal(matchesQuery(conv({}), { tag: 'Billing' }, me), false)
    assert.equal(matchesQuery(conv({ assignee_id: me }), { assignee: 'me' }, me), true)
    assert.equal(matchesQuery(conv({ assignee_id: 'mem_other' }), { assignee: 'me' }, me), false)
    assert.equal(matchesQuery(conv({}), { assignee: 'unassigned' }, me), true)
    assert.equal(matchesQuery(conv({ unread_count: 0 }), { unread: true }, me), false)
    assert.equal(matchesQuery(conv({ unread_count: 2 }), { unread: 'true' }, me), true)
    assert.equal(matchesQuery(conv({}), { q: 'invoice' }, me), undefined)
    assert.equal(matchesQuery(conv({ status: 'resolved' }), { q: 'invoice', status: 'open' }, me), false)
  })

  it('orders by last activity, newest first (the last message, else creation)', () => {
    const xs = [
      conv({ id: 'conv_a', created_at: '2026-11-01T00:00:00.000Z' }),
      conv({ id: 'conv_b', created_at: '2026-11-02T00:00:00.000Z' }),
      conv({ id: 'conv_c', created_at: '2026-10-01T00:00:00.000Z', last_activity_at: '2026-11-03T00:00:00.000Z' }),
    ]
    assert.deepEqual(
      xs.sort(byActivity).map((c) => c.id),
      ['conv_c', 'conv_b', 'conv_a'],
    )
  })
})
