import type { Executor } from './db/database.js'

/**
 * What one transaction has already read, so that a second reader in the same transaction (another
 * transactional subscriber of the same event, or of the next event) sends no second statement.
 *
 * Entries hang off the transaction object in a WeakMap: they die with it, and a new transaction starts
 * empty. A read on the pool (not a transaction) is never remembered: there nothing holds still between two
 * reads. A transaction sees its own writes, so a remembered read goes stale only when the same transaction
 * writes what it read: every repository function that writes the memo's table calls `forget(tx)` after its
 * statement. Keys must name the tenant (`keyOf`), so nothing read for one workspace or mode answers another.
 * Values are shared between the readers: they must not change what they get.
 */
export class TransactionMemo<V> {
  private readonly byTx = new WeakMap<object, Map<string, Promise<V>>>()

  /** `load()`'s answer for `key`, made once per transaction (a failed read is not remembered). */
  read(tx: Executor, key: string, load: () => Promise<V>): Promise<V> {
    if (!tx.isTransaction) return load()
    let memo = this.byTx.get(tx)
    if (!memo) this.byTx.set(tx, (memo = new Map()))
    const known = memo.get(key)
    if (known) return known
    const loading = load()
    memo.set(key, loading)
    const entries = memo
    loading.catch(() => {
      if (entries.get(key) === loading) entries.delete(key)
    })
    return loading
  }

  /** After a write to what the memo holds: the transaction's next read asks the database again. */
  forget(tx: Executor): void {
    this.byTx.delete(tx)
  }
}

/** A memo key of one tenant's object: workspace, mode and the object's own key. */
export const keyOf = (tenant: { workspaceId: string; mode: string }, key: string): string => `${tenant.workspaceId}\u0000${tenant.mode}\u0000${key}`
