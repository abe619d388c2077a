import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { createQueryId, sql, type KyselyPlugin, type PluginTransformQueryArgs, type PluginTransformResultArgs, type QueryResult, type RootOperationNode, type UnknownRow } from 'kysely'
import { findPrincipal } from '../src/kernel/auth/api-keys.js'
import type { Db } from '../src/kernel/db/database.js'
import * as inbox from '../src/modules/inbox/inbox.repository.js'
import { searchDocs } from '../src/modules/inbox/inbox-search.repository.js'
import * as knowledgeIndex from '../src/modules/knowledge/knowledge-index.repository.js'
import { readSearchStats } from '../src/modules/knowledge/knowledge-stats.repository.js'
import * as webhooks from '../src/modules/webhooks/webhooks.repository.js'
import * as workspaces from '../src/modules/workspaces/workspaces.repository.js'
import { createTestApp, ENGINE, type TestApp } from './helpers.js'

// The hot queries use an index on both engines: no full scan of a tenant table, whatever its size. The
// SQL is the repositories' own (recorded as they run), explained by the engine itself.
class Recorder implements KyselyPlugin {
  readonly nodes: RootOperationNode[] = []
  transformQuery({ node }: PluginTransformQueryArgs): RootOperationNode {
    this.nodes.push(node)
    return node
  }
  async transformResult({ result }: PluginTransformResultArgs): Promise<QueryResult<UnknownRow>> {
    return result
  }
}

async function plansOf(db: Db, run: (db: Db) => Promise<unknown>): Promise<string[]> {
  const recorder = new Recorder()
  await run(db.withPlugin(recorder))
  const out: string[] = []
  for (const node of recorder.nodes) {
    const q = db.getExecutor().compileQuery(node, createQueryId())
    // EXPLAIN of the exact statement, with its parameters bound by the driver.
    const explained = await db.executeQuery({ ...q, sql: `${ENGINE === 'sqlite' ? 'explain query plan' : 'explain'} ${q.sql}` })
    out.push(...explained.rows.map((r) => String((r as Record<string, unknown>)[ENGINE === 'sqlite' ? 'detail' : 'QUERY PLAN'])))
  }
  return out
}

/** SQLite says `SCAN t` for a full scan (`SCAN t USING INDEX …` walks an index); PostgreSQL `Seq Scan on t`. */
function fullScans(plan: string[]): string[] {
  return plan.filter((line) => (ENGINE === 'sqlite' ? /^SCAN \w+$/.test(line.trim()) : /Seq Scan on/.test(line)))
}

describe(`query plans of the hot queries (${ENGINE})`, () => {
  let h: TestApp
  let db: Db
  const t = () => ({ workspaceId: h.a.workspaceId, mode: 'live' as const })
  before(async () => {
    h = await createTestApp()
    db = h.app.kernel.db
  })
  after(() => h.close())

  const page = { after: 'conv_01JD0000000000000000000000', limit: 20 }
  const kb = 'kb_01JD0000000000000000000000'
  // FTS5 consumes `order by rowid desc` itself (idxNum 0x40 order by rowid | 0x80 descending): no sort of the matches.
  const FTS_NEWEST_FIRST = 'VIRTUAL TABLE INDEX 192:'
  const activityPage = { after: '2026-11-28T12:00:00.000Z~conv_01JD0000000000000000000000', limit: 20 }
  const member = 'mem_01JD0000000000000000000000'
  // SQLite's planner, without statistics, takes the index that answers alone. PostgreSQL prices an
  // index-only scan by the table's statistics and visibility map, which a test's few rows cannot stand
  // for: bench/scale.ts holds it there (docs/performance.md).
  const COUNTS = ENGINE === 'sqlite' ? 'USING COVERING INDEX' : undefined
  const message = {
    id: 'msg_01JD0000000000000000000000',
    workspace_id: 'ws_x',
    mode: 'live' as const,
    conversation_id: 'conv_01JD0000000000000000000000',
    direction: 'outbound' as const,
    author_type: 'api_key' as const,
    author_id: null,
    content: 'Hi',
    private: 0,
    attachments: '[]',
    created_at: '',
  }
  // A filter with an index of its own names it: walking the tenant index and filtering is no scan, but it
  // reads every row of the workspace when the filter matches few (bench/scale.ts measures it at a million).
  const cases: [string, (db: Db) => Promise<unknown>, string?][] = [
    ['findPrincipal (key lookup)', (d) => findPrincipal(d, 'svc_live_' + Math.random())],
    ['findConversation', (d) => inbox.findConversation(d, t(), 'conv_01JD0000000000000000000000')],
    ['listConversations', (d) => inbox.listConversations(d, t(), {}, page)],
    ['listConversations ?status', (d) => inbox.listConversations(d, t(), { status: 'open' }, page), 'inbox_conversations_status'],
    ['listConversations ?assignee', (d) => inbox.listConversations(d, t(), { assignee: 'mem_01JD0000000000000000000000' }, page), 'inbox_conversations_assignee'],
    ['listConversations ?channel', (d) => inbox.listConversations(d, t(), { channel: 'email' }, page), 'inbox_conversations_channel'],
    ['listConversations ?tag', (d) => inbox.listConversations(d, t(), { tagKey: 'vip' }, page), 'inbox_conversation_tags_filter'],
    ['listMessages', (d) => inbox.listMessages(d, t(), 'conv_01JD0000000000000000000000', { ...page, order: 'desc' })],
    ['recentMessages', (d) => inbox.recentMessages(d, t(), 'conv_01JD0000000000000000000000', 10)],
    ['touchConversation', (d) => inbox.touchConversation(d, t(), { ...message, created_at: new Date().toISOString() })],
    ['listConversations ?order=last_activity', (d) => inbox.listConversations(d, t(), {}, activityPage, 'last_activity'), 'inbox_conversations_activity'],
    ['listConversations ?order=last_activity&status', (d) => inbox.listConversations(d, t(), { status: 'open' }, activityPage, 'last_activity'), 'inbox_conversations_status_activity'],
    [
      'listConversations ?order=last_activity&assignee=me (with read marks)',
      (d) => inbox.listConversations(d, t(), { assignee: member, memberId: member }, activityPage, 'last_activity'),
      'inbox_conversations_assignee_activity',
    ],
    [
      'listConversations ?order=last_activity&unread (member)',
      (d) => inbox.listConversations(d, t(), { memberId: member, unread: true }, activityPage, 'last_activity'),
      'inbox_conversations_activity',
    ],
    ['listConversations with read marks (member)', (d) => inbox.listConversations(d, t(), { memberId: member }, page)],
    // Each count reads one index alone, never the conversations themselves (bench/scale.ts at a million).
    ['getInboxCounts: open, capped', (d) => inbox.countOpen(d, t(), {}, 100), COUNTS],
    ['getInboxCounts: mine, capped', (d) => inbox.countOpen(d, t(), { assignee: member }, 100), COUNTS],
    ['getInboxCounts: unassigned, capped', (d) => inbox.countOpen(d, t(), { assignee: null }, 100), COUNTS],
    ['getInboxCounts: unread, capped', (d) => inbox.countOpen(d, t(), { unreadFor: member }, 100), COUNTS],
    ['getInboxCounts: mine unread, capped', (d) => inbox.countOpen(d, t(), { assignee: member, unreadFor: member }, 100), COUNTS],
    ['findReadMark', (d) => inbox.findReadMark(d, t(), 'conv_01JD0000000000000000000000', member)],
    ['searchInbox: newest matches first', (d) => searchDocs(d, t(), ['pro', 'pla'], { before: null, take: 21 }), ENGINE === 'sqlite' ? FTS_NEWEST_FIRST : undefined],
    ['searchInbox: the page’s conversations', (d) => inbox.listConversationsByIds(d, t(), ['conv_01JD0000000000000000000000', 'conv_01JD0000000000000000000001'], member)],
    [
      'searchInbox: the page’s messages',
      (d) => inbox.messagesByIds(d, t(), ['conv_01JD0000000000000000000000'], ['msg_01JD0000000000000000000000', 'msg_01JD0000000000000000000001']),
      ENGINE === 'sqlite' ? 'inbox_messages_conversation' : undefined,
    ],
    ['searchInbox: next page', (d) => searchDocs(d, t(), ['pricing'], { before: 1000, take: 21 }), ENGINE === 'sqlite' ? FTS_NEWEST_FIRST : undefined],
    ['listMembers', (d) => workspaces.listMembers(d, t(), page)],
    ['enabledEndpoints (fan-out)', (d) => webhooks.enabledEndpoints(d, t())],
    ['listDeliveries', (d) => webhooks.listDeliveries(d, t(), page)],
    ['listDeliveries ?endpoint_id', (d) => webhooks.listDeliveries(d, t(), { ...page, endpointId: 'we_01JD0000000000000000000000' }), 'webhook_deliveries_tenant_endpoint_id'],
    ['listDeliveries ?status', (d) => webhooks.listDeliveries(d, t(), { ...page, status: 'failed' }), 'webhook_deliveries_tenant_status'],
    ['listDeliveries ?event_type', (d) => webhooks.listDeliveries(d, t(), { ...page, eventType: 'message.created' }), 'webhook_deliveries_tenant_event_type'],
    ['loadForAttempt', (d) => webhooks.loadForAttempt(d, t(), 'whd_01JD0000000000000000000000')],
    ['listAttempts', (d) => webhooks.listAttempts(d, t(), 'whd_01JD0000000000000000000000')],
    ['knowledge search: bases and statistics', (d) => readSearchStats(d, t(), [kb], ['refund', 'card'])],
    ['knowledge search: bases and statistics, every base', (d) => readSearchStats(d, t(), undefined, ['refund', 'card'])],
    [
      'knowledge search: rare terms ranked, common ones newest first',
      (d) => knowledgeIndex.searchCandidates(d, t(), { kbIds: [kb], plans: [{ any: ['refund'] }, { newest: ['order', 'card'], cap: 50 }], filters: {}, limit: 100, withVectors: false }),
    ],
    [
      'knowledge search: common terms only, two bases',
      (d) => knowledgeIndex.searchCandidates(d, t(), { kbIds: [kb, 'kb_01JD0000000000000000000001'], plans: [{ newest: ['order', 'card'], cap: 50 }], filters: {}, limit: 100, withVectors: true }),
    ],
    [
      'knowledge search: candidates with a metadata filter',
      (d) =>
        knowledgeIndex.searchCandidates(d, t(), { kbIds: [kb], plans: [{ any: ['refund'] }, { newest: ['order', 'card'], cap: 50 }], filters: { team: 'billing' }, limit: 100, withVectors: false }),
    ],
    ['knowledge search: passages', (d) => knowledgeIndex.passagesOf(d, t(), [1, 2, 3])],
  ]

  it('the check is not vacuous: an unindexed filter is reported as a full scan', async () => {
    const plan = await db.transaction().execute(async (tx) => {
      if (ENGINE === 'postgres') await sql`set local enable_seqscan = off`.execute(tx)
      return plansOf(tx as unknown as Db, (d) => d.selectFrom('inbox_messages').selectAll().where('content', '=', 'x').execute())
    })
    assert.ok(fullScans(plan).length > 0, plan.join('\n'))
  })

  for (const [name, run, index] of cases) {
    it(`${name} uses an index`, async () => {
      // PostgreSQL: with sequential scans priced out, a scan that remains is one no index can serve.
      const plan = await db.transaction().execute(async (tx) => {
        if (ENGINE === 'postgres') await sql`set local enable_seqscan = off`.execute(tx)
        return plansOf(tx as unknown as Db, run)
      })
      assert.ok(plan.length > 0, 'no plan recorded')
      assert.deepEqual(fullScans(plan), [], plan.join('\n'))
      if (index)
        assert.ok(
          plan.some((line) => line.includes(index)),
          `${index} not used:\n${plan.join('\n')}`,
        )
      // Newest activity first, and SQLite's search, read the rows in list order: nothing is sorted.
      if (name.includes('order=last_activity') || (ENGINE === 'sqlite' && name.startsWith('searchInbox'))) {
        assert.deepEqual(
          plan.filter((line) => /TEMP B-TREE|Sort/.test(line)),
          [],
          plan.join('\n'),
        )
      }
    })
  }
})
