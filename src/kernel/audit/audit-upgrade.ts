import { iso, type Clock } from '../clock.js'
import type { Db } from '../db/database.js'
import type { AuditLogTable } from '../db/kernel.tables.js'
import { workspaceScoped } from '../db/scoped.js'
import { GENESIS, legacyEntryHash } from './audit.js'
import type { AuditChain } from './audit-chain.js'

const SETTING = 'audit_chain_scheme'
const KEYED = 'hmac-sha256-v1'

/**
 * Chains sealed before the keyed scheme (unkeyed SHA-256 links, no entry MACs) are re-sealed once, at the
 * first start of a version that keys them: each workspace's chain is verified under the old scheme and,
 * from its first entry up to the first one that does not verify, re-linked under the key (same seq, same
 * content); unsealed rows written by the old version get their entry MAC. Entries after a break keep their
 * old link and go on failing verification at the same place: the upgrade never launders a broken chain.
 * Done when instance_settings says so; a workspace whose first entry already verifies under the key is
 * skipped, so a start interrupted midway resumes.
 */
export async function upgradeAuditChains(db: Db, clock: Clock, chain: AuditChain): Promise<{ workspaces: number; entries: number } | null> {
  const done = await db.selectFrom('instance_settings').select('value').where('key', '=', SETTING).executeTakeFirst()
  if (done?.value === KEYED) return null
  let workspaces = 0
  let entries = 0
  const all = await db.selectFrom('audit_log').select('workspace_id').groupBy('workspace_id').execute()
  for (const { workspace_id: ws } of all) {
    const n = await db.transaction().execute(async (tx) => {
      const scoped = () => workspaceScoped(tx, ws).selectFrom('audit_log').selectAll()
      const first = await scoped().where('seq', 'is not', null).orderBy('seq').limit(1).executeTakeFirst()
      if (first && first.hash === chain.link(first)) return 0
      let count = 0
      for (const row of await scoped().where('seq', 'is', null).execute()) {
        await tx
          .updateTable('audit_log')
          .set({ entry_mac: chain.entryMac(row) })
          .where('id', '=', row.id)
          .execute()
        count++
      }
      let oldPrev = GENESIS
      let newPrev = GENESIS
      let expected = 1
      for (let after = 0; ;) {
        const rows: AuditLogTable[] = await scoped().where('seq', '>', after).orderBy('seq').limit(1000).execute()
        for (const r of rows) {
          if (Number(r.seq) !== expected || r.prev_hash !== oldPrev || legacyEntryHash(r) !== r.hash) return count
          const next = { ...r, prev_hash: newPrev }
          const link = chain.link(next)
          await tx
            .updateTable('audit_log')
            .set({ prev_hash: newPrev, hash: link, entry_mac: chain.entryMac(r) })
            .where('id', '=', r.id)
            .execute()
          oldPrev = r.hash!
          newPrev = link
          expected++
          count++
        }
        if (rows.length < 1000) return count
        after = Number(rows[rows.length - 1].seq)
      }
    })
    if (n > 0) workspaces++
    entries += n
  }
  const now = iso(clock.now())
  await db
    .insertInto('instance_settings')
    .values({ key: SETTING, value: KEYED, updated_at: now })
    .onConflict((oc) => oc.column('key').doUpdateSet({ value: KEYED, updated_at: now }))
    .execute()
  return { workspaces, entries }
}
