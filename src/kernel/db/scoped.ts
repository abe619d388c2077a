import type { DeleteQueryBuilder, DeleteResult, SelectQueryBuilder, UpdateQueryBuilder, UpdateResult } from 'kysely'
import type { Mode, Tenant } from '../tenant.js'
import type { Executor, Tables } from './database.js'

/** Tables whose rows belong to one workspace and one mode: the only ones `scoped` opens. */
export type TenantTable = { [K in keyof Tables]: Tables[K] extends { workspace_id: string; mode: Mode } ? K : never }[keyof Tables] & string

/**
 * Tenant-scoped data access, in the spirit of svix's `secure_find`: every repository query on a tenant
 * table starts here, so `workspace_id` and `mode` are in its WHERE by construction — a query that forgets
 * `mode` (and leaks sandbox rows into live) cannot be written. `test/structure.test.ts` refuses
 * hand-written tenant filters anywhere else.
 *
 *   scoped(db, tenant).selectFrom('inbox_conversations').selectAll().where('id', '=', id)
 */
export function scoped(db: Executor, tenant: Tenant) {
  // Kysely cannot type a column reference on a generic table; the constraint above guarantees both columns.
  // Columns are qualified by the table name, so a query may join other tenant tables without ambiguity.
  type Filterable = { where(column: string, op: '=', value: string): Filterable }
  const filter = <Q>(table: string, q: Q): Q => (q as unknown as Filterable).where(`${table}.workspace_id`, '=', tenant.workspaceId).where(`${table}.mode`, '=', tenant.mode) as unknown as Q
  return {
    selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<Tables, T, object> {
      return filter(table, db.selectFrom(table) as unknown as SelectQueryBuilder<Tables, T, object>)
    },
    updateTable<T extends TenantTable>(table: T): UpdateQueryBuilder<Tables, T, T, UpdateResult> {
      return filter(table, db.updateTable(table) as unknown as UpdateQueryBuilder<Tables, T, T, UpdateResult>)
    },
    deleteFrom<T extends TenantTable>(table: T): DeleteQueryBuilder<Tables, T, DeleteResult> {
      return filter(table, db.deleteFrom(table) as unknown as DeleteQueryBuilder<Tables, T, DeleteResult>)
    },
  }
}

/**
 * One workspace across both modes: for the few records that span them (the audit chain is one per
 * workspace). Everything else is per tenant: use `scoped`.
 */
export function workspaceScoped(db: Executor, workspaceId: string) {
  type Filterable = { where(column: string, op: '=', value: string): Filterable }
  const filter = <Q>(table: string, q: Q): Q => (q as unknown as Filterable).where(`${table}.workspace_id`, '=', workspaceId) as unknown as Q
  return {
    selectFrom<T extends TenantTable>(table: T): SelectQueryBuilder<Tables, T, object> {
      return filter(table, db.selectFrom(table) as unknown as SelectQueryBuilder<Tables, T, object>)
    },
  }
}
