import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { complianceApp, ok, patch, post, type ComplianceApp } from './compliance.testkit.js'
import { PURGE_BATCH } from './retention.service.js'

// A purge of a long backlog shares the node: the event loop turns between two of its batches.
describe('retention enforcement in batches', () => {
  let h: ComplianceApp
  before(async () => (h = await complianceApp()))
  after(() => h.close())

  it('lets the event loop turn between two batches, so a backlog never holds the requests of the node that purges it', async () => {
    const total = PURGE_BATCH + 1
    for (let i = 0; i < total; i++) await ok(post(h, '/inbox/conversations', { contact: { name: `Old ${i}` }, message: { content: `Old words ${i}` } }), 201)
    h.clock.advance(3 * 86400_000)
    await ok(patch(h, '/compliance/retention', { policies: { messages: 1 } }, h.a.live))
    const tenant = { workspaceId: h.a.workspaceId, mode: 'live' as const }
    const left = async () =>
      Number(
        (
          await h.app.kernel.db
            .selectFrom('inbox_conversations')
            .select((eb) => eb.fn.countAll<number>().as('n'))
            .where('workspace_id', '=', tenant.workspaceId)
            .where('mode', '=', 'live')
            .executeTakeFirstOrThrow()
        ).n,
      )
    assert.equal(await left(), total)
    // On SQLite a batch's statements resolve without a turn: what a turn sees is the pause between two batches,
    // or nothing but the end when the batches run back to back.
    const seen: number[] = []
    let purging = true
    const turn = () => void left().then((n) => (seen.push(n), purging && setImmediate(turn)))
    setImmediate(turn)
    const run = await h.app.services.compliance.retention.enforce(tenant)
    purging = false
    assert.ok(run)
    assert.equal(await left(), 0)
    assert.ok(
      seen.some((n) => n > 0 && n < total),
      `a turn between batches saw part of the backlog purged (counts seen: ${[...new Set(seen)].join(' ')} of ${total})`,
    )
  })
})
