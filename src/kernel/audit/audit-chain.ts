import { createHash, createHmac, timingSafeEqual } from 'node:crypto'
import { sql, SqliteAdapter } from 'kysely'
import type { BlobStore } from '../blobs/blobs.js'
import { iso, type Clock } from '../clock.js'
import { isUniqueViolation, type Db, type Executor } from '../db/database.js'
import type { AuditLogTable } from '../db/kernel.tables.js'
import { prepared } from '../db/prepared.js'
import { workspaceScoped } from '../db/scoped.js'
import { nextTurn } from '../db/turns.js'
import { deriveKey } from '../crypto/server-secret.js'
import { contentOf, GENESIS, writtenContentOf } from './audit.js'

/** Thrown inside a sealing batch when another sealer got to one of its rows first: the batch rolls back. */
class AnotherSealer extends Error {}

/** The keys of one server secret: the chain links, the entry MACs, the checkpoint signatures. */
interface AuditKeySet {
  id: string
  chain: Buffer
  entry: Buffer
  checkpoint: Buffer
}
const keySetOf = (secret: Buffer): AuditKeySet => {
  const chain = deriveKey(secret, 'audit-chain')
  return { id: createHash('sha256').update(chain).digest('hex').slice(0, 8), chain, entry: deriveKey(secret, 'audit-entry'), checkpoint: deriveKey(secret, 'audit-checkpoint') }
}
const mac = (key: Buffer, data: string) => createHmac('sha256', key).update(data).digest('hex')
const same = (a: string | null | undefined, b: string) => typeof a === 'string' && a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b))

/**
 * A workspace's chain head as it was sealed, signed and kept outside the database (the blob store; also
 * in the audit-chain evidence reports and the `audit.checkpoint` event): whoever can write only the
 * database cannot roll it back, so entries deleted from the end of the chain are detected.
 */
export interface AuditCheckpoint {
  object: 'audit_checkpoint'
  workspace_id: string
  seq: number
  mac: string
  created_at: string
  key_id: string
  /** HMAC-SHA256 (a key of the server secret) over workspace_id, seq, mac and created_at. */
  signature: string
}

export interface ChainVerification {
  intact: boolean
  entries: number
  head: { seq: number; hash: string } | null
  /** The first entry that does not verify, and why (seq null: an entry outside the chain). */
  broken: { seq: number | null; id: string | null; reason: string } | null
  /** The checkpoint the chain was held to, if any. */
  checkpoint: AuditCheckpoint | null
}

interface Link {
  id: string
  seq: number
  prevHash: string
  hash: string
}

/** One entry's link, only while it has none (another sealer's link makes it change nothing). */
const linkQ = prepared((db, a: Link) => db.updateTable('audit_log').set({ seq: a.seq, prev_hash: a.prevHash, hash: a.hash }).where('id', '=', a.id).where('seq', 'is', null))

/**
 * A batch's links; returns how many entries took theirs. SQLite (in process): one prepared statement per entry.
 * PostgreSQL: one statement for the batch, its links as one JSON parameter, where a round trip per entry cost
 * ~65 µs of the service's CPU each (and the database's), ~6 % of a core at 1,000 writes a second.
 */
async function writeLinks(tx: Executor, links: Link[]): Promise<number> {
  if (links.length === 0) return 0
  if (tx.getExecutor().adapter instanceof SqliteAdapter) {
    let n = 0
    for (const l of links) n += await linkQ.run(tx, l)
    return n
  }
  const r = await sql`update audit_log as a set seq = r.seq, prev_hash = r.prev_hash, hash = r.hash
    from json_to_recordset(${JSON.stringify(links.map((l) => ({ id: l.id, seq: l.seq, prev_hash: l.prevHash, hash: l.hash })))}::json) as r(id text, seq integer, prev_hash text, hash text)
    where a.id = r.id and a.seq is null`.execute(tx)
  return Number(r.numAffectedRows ?? 0)
}

/**
 * The audit chain (see audit.ts for the entries): each sealed entry's link is HMAC-SHA256, under a key
 * derived from the server secret (never stored), over its content, its `seq` and the previous link. Without
 * the key nobody can recompute a link, so an entry modified, deleted, inserted or rewritten at the head is
 * detected; a row written without the service's entry MAC is never sealed and fails verification; the
 * checkpoint the sealer keeps outside the database catches entries deleted from the end. Keys of a secret
 * listed in SERVER_SECRET_PREVIOUS still verify what was sealed under it.
 */
export class AuditChain {
  private readonly current: AuditKeySet
  private readonly keys: AuditKeySet[]

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
    private readonly clock: Clock,
    secret: Buffer,
    previous: Buffer[] = [],
  ) {
    this.current = keySetOf(secret)
    this.keys = [this.current, ...previous.map(keySetOf)]
  }

  /** The MAC a row gets when the service writes it (kernel.transaction → recordAudit). */
  readonly entryMac = (row: AuditLogTable): string => mac(this.current.entry, writtenContentOf(row))

  /** The chain link of a row (its seq and prev_hash set) under the current key. */
  link(row: AuditLogTable): string {
    return mac(this.current.chain, contentOf(row))
  }

  private written(row: AuditLogTable): boolean {
    return this.keys.some((k) => same(row.entry_mac, mac(k.entry, writtenContentOf(row))))
  }
  private linked(row: AuditLogTable): boolean {
    return this.keys.some((k) => same(row.hash, mac(k.chain, contentOf(row))))
  }

  /**
   * Links the workspace's unsealed entries onto its chain, oldest first; returns how many were sealed.
   * A row without a valid entry MAC (not written by the service) is left out, never sealed: verification
   * reports it. Each batch is one transaction — one commit for its links, where a commit per row doubled the
   * WAL appends of a write-heavy workspace (every change writes an entry) — and two sealers cannot both take a
   * seq (a unique index): the loser's batch rolls back and it stops, the winner carries on. After sealing, the
   * new head is checkpointed.
   *
   * On SQLite every statement resolves at once, so without a pause the batches of a busy workspace ran as one
   * turn of the event loop: ~80 ms every 2 s at 1,600 writes/s, which every request in flight waited out (the
   * write path's p99, docs/performance.md). So a batch holds 100 entries (~2.5 ms) and the next waits for the
   * event loop's next turn.
   */
  async seal(workspaceId: string, batch = 100): Promise<number> {
    let sealed = 0
    let head: { seq: number; hash: string } | null = null
    const skip = new Set<string>()
    for (;;) {
      let done: { sealed: number; head: { seq: number; hash: string } | null; more: boolean }
      try {
        done = await this.db.transaction().execute(async (tx) => {
          const top = await workspaceScoped(tx, workspaceId).selectFrom('audit_log').select(['seq', 'hash']).where('seq', 'is not', null).orderBy('seq', 'desc').limit(1).executeTakeFirst()
          let q = workspaceScoped(tx, workspaceId).selectFrom('audit_log').selectAll().where('seq', 'is', null)
          if (skip.size > 0) q = q.where('id', 'not in', [...skip])
          const open = await q.orderBy('occurred_at').orderBy('id').limit(batch).execute()
          let seq = top ? Number(top.seq) : 0
          let prev = top?.hash ?? GENESIS
          const links: Link[] = []
          for (const row of open) {
            if (!this.written(row)) {
              skip.add(row.id)
              continue
            }
            const next: AuditLogTable = { ...row, seq: seq + 1, prev_hash: prev }
            next.hash = this.link(next)
            links.push({ id: row.id, seq: next.seq!, prevHash: prev, hash: next.hash })
            seq = next.seq!
            prev = next.hash
          }
          if ((await writeLinks(tx, links)) !== links.length) throw new AnotherSealer()
          return { sealed: links.length, head: links.length > 0 ? { seq, hash: prev } : null, more: open.length === batch }
        })
      } catch (err) {
        // Another sealer took a row or a seq of this batch first: it carries on from here (and checkpoints).
        if (err instanceof AnotherSealer || isUniqueViolation(err)) break
        throw err
      }
      sealed += done.sealed
      head = done.head ?? head
      if (!done.more) break
      await nextTurn()
    }
    if (head) await this.writeCheckpoint(workspaceId, head)
    return sealed
  }

  async workspacesToSeal(limit = 100): Promise<string[]> {
    const rows = await this.db.selectFrom('audit_log').select('workspace_id').where('seq', 'is', null).groupBy('workspace_id').limit(limit).execute()
    return rows.map((r) => r.workspace_id)
  }

  /**
   * Recomputes the workspace's chain from the start (both modes: one chain per workspace), then checks
   * the entries not sealed yet (each must carry the service's entry MAC) and holds the chain to the latest
   * checkpoint: it must reach the checkpoint's seq with the same link there.
   */
  async verify(workspaceId: string, page = 1000): Promise<ChainVerification> {
    // The checkpoint first: the chain only grows after it, so a seal in between cannot look like a truncation.
    const cp = await this.readCheckpoint(workspaceId)
    const checkpoint = cp.ok ? cp.checkpoint : null
    const broken = (entries: number, seq: number | null, id: string | null, reason: string): ChainVerification => ({ intact: false, entries, head: null, broken: { seq, id, reason }, checkpoint })
    if (!cp.ok) return broken(0, null, null, cp.reason)
    let prev = GENESIS
    let expected = 1
    let after = 0
    let checkpointSeen = false
    for (;;) {
      const rows = await workspaceScoped(this.db, workspaceId).selectFrom('audit_log').selectAll().where('seq', '>', after).orderBy('seq').limit(page).execute()
      for (const r of rows) {
        const seq = Number(r.seq)
        if (seq !== expected) return broken(expected - 1, expected, null, `entry ${expected} is missing (the next is ${seq})`)
        if (r.prev_hash !== prev) return broken(expected - 1, seq, r.id, 'its previous link does not match the entry before it')
        if (!this.linked(r)) return broken(expected - 1, seq, r.id, 'its link does not match its content under the chain key (modified, or not sealed by this service)')
        if (checkpoint && seq === checkpoint.seq) {
          if (!same(r.hash, checkpoint.mac)) return broken(expected - 1, seq, r.id, `it is not the entry the checkpoint of ${checkpoint.created_at} recorded at this position`)
          checkpointSeen = true
        }
        prev = r.hash!
        expected++
      }
      if (rows.length < page) break
      after = Number(rows[rows.length - 1].seq)
      // A long chain is many pages (a busy workspace writes hundreds of thousands of entries): on SQLite they
      // would otherwise run as one turn of the event loop, seconds long, each time the evidence is made.
      await nextTurn()
    }
    const entries = expected - 1
    if (checkpoint && !checkpointSeen) {
      return broken(entries, entries + 1, null, `the chain ends at entry ${entries}, but the checkpoint of ${checkpoint.created_at} recorded entry ${checkpoint.seq} (entries deleted from the end)`)
    }
    const unsealed = await workspaceScoped(this.db, workspaceId).selectFrom('audit_log').selectAll().where('seq', 'is', null).orderBy('occurred_at').execute()
    const foreign = unsealed.find((r) => !this.written(r))
    if (foreign) return broken(entries, null, foreign.id, 'an entry not written by this service (no valid entry MAC) is in the log; it was not sealed into the chain')
    return { intact: true, entries, head: entries > 0 ? { seq: entries, hash: prev } : null, broken: null, checkpoint }
  }

  /**
   * After a rotation (`svc secrets reseal`): an intact chain whose links or entry MACs were made under a
   * previous secret is re-linked under the current one (same seq, same content) and its checkpoint
   * re-signed. A broken chain is left as it is (null), still verifiable while the previous secret is listed.
   */
  async reseal(workspaceId: string): Promise<number | null> {
    await this.seal(workspaceId)
    const v = await this.verify(workspaceId)
    if (!v.intact) return null
    let changed = 0
    let prev = GENESIS
    for (let after = 0; ;) {
      const rows = await workspaceScoped(this.db, workspaceId).selectFrom('audit_log').selectAll().where('seq', '>', after).orderBy('seq').limit(1000).execute()
      for (const r of rows) {
        const next = { ...r, prev_hash: prev }
        const link = this.link(next)
        const entry = this.entryMac(r)
        if (link !== r.hash || prev !== r.prev_hash || entry !== r.entry_mac) {
          await this.db.updateTable('audit_log').set({ prev_hash: prev, hash: link, entry_mac: entry }).where('id', '=', r.id).where('hash', '=', r.hash).execute()
          changed++
        }
        prev = link
      }
      if (rows.length < 1000) break
      after = Number(rows[rows.length - 1].seq)
    }
    for (const r of await workspaceScoped(this.db, workspaceId).selectFrom('audit_log').selectAll().where('seq', 'is', null).execute()) {
      if (r.entry_mac === this.entryMac(r)) continue
      await this.db
        .updateTable('audit_log')
        .set({ entry_mac: this.entryMac(r) })
        .where('id', '=', r.id)
        .execute()
      changed++
    }
    if (changed > 0 && v.head) {
      const head = await workspaceScoped(this.db, workspaceId).selectFrom('audit_log').select(['seq', 'hash']).where('seq', 'is not', null).orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow()
      const body = { workspace_id: workspaceId, seq: Number(head.seq), mac: head.hash!, created_at: iso(this.clock.now()) }
      const c: AuditCheckpoint = { object: 'audit_checkpoint', ...body, key_id: this.current.id, signature: this.sign(this.current, body) }
      await this.blobs.put(AuditChain.keyOf(workspaceId), Buffer.from(JSON.stringify(c), 'utf8'), { contentType: 'application/json' })
    }
    return changed
  }

  /** Every workspace with an audit log. */
  async workspaces(): Promise<string[]> {
    return (await this.db.selectFrom('audit_log').select('workspace_id').groupBy('workspace_id').execute()).map((r) => r.workspace_id)
  }

  private static keyOf(workspaceId: string): string {
    return `audit/${workspaceId.toLowerCase()}/checkpoint.json`
  }

  private sign(k: AuditKeySet, c: Omit<AuditCheckpoint, 'signature' | 'key_id' | 'object'>): string {
    return mac(k.checkpoint, JSON.stringify([c.workspace_id, c.seq, c.mac, c.created_at]))
  }

  /** The latest checkpoint of the workspace, its signature verified; null when none was written yet. */
  async readCheckpoint(workspaceId: string): Promise<{ ok: true; checkpoint: AuditCheckpoint | null } | { ok: false; reason: string }> {
    const key = AuditChain.keyOf(workspaceId)
    if (!(await this.blobs.stat(key))) return { ok: true, checkpoint: null }
    const chunks: Buffer[] = []
    for await (const c of this.blobs.read(key)) chunks.push(c as Buffer)
    let c: AuditCheckpoint
    try {
      c = JSON.parse(Buffer.concat(chunks).toString('utf8')) as AuditCheckpoint
    } catch {
      return { ok: false, reason: 'the chain checkpoint is unreadable' }
    }
    const k = this.keys.find((x) => x.id === c.key_id)
    if (!k || c.workspace_id !== workspaceId || !same(c.signature, this.sign(k, c))) return { ok: false, reason: 'the chain checkpoint does not carry a valid signature of this service' }
    return { ok: true, checkpoint: c }
  }

  /** Records `head` as the workspace's checkpoint unless a later one is there already (another node's). */
  async writeCheckpoint(workspaceId: string, head: { seq: number; hash: string }): Promise<AuditCheckpoint | null> {
    const had = await this.readCheckpoint(workspaceId)
    // An unreadable or unsigned checkpoint stays for verification to report (an operator removes it).
    if (!had.ok) return null
    if (had.checkpoint && had.checkpoint.seq >= head.seq) return had.checkpoint
    if (had.checkpoint) {
      // The chain must still hold the checkpointed entry: a truncated chain grown back over it must not
      // move the checkpoint past the evidence.
      const at = await workspaceScoped(this.db, workspaceId).selectFrom('audit_log').select('hash').where('seq', '=', had.checkpoint.seq).executeTakeFirst()
      if (!same(at?.hash, had.checkpoint.mac)) return had.checkpoint
    }
    const body = { workspace_id: workspaceId, seq: head.seq, mac: head.hash, created_at: iso(this.clock.now()) }
    const c: AuditCheckpoint = { object: 'audit_checkpoint', ...body, key_id: this.current.id, signature: this.sign(this.current, body) }
    await this.blobs.put(AuditChain.keyOf(workspaceId), Buffer.from(JSON.stringify(c), 'utf8'), { contentType: 'application/json' })
    return c
  }
}
