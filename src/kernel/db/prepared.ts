import type { Compilable, CompiledQuery, QueryResult, RootOperationNode } from 'kysely'
import type { Executor } from './database.js'

/**
 * A query built once and compiled once, then run with new arguments: Kysely builds an immutable operation
 * tree and compiles it to SQL on every call, which measured ~30 µs of a ~85 µs indexed read on SQLite
 * (docs/performance.md). The builder is an ordinary Kysely query over `args`; on the first call it runs
 * with placeholder arguments, and the SQL text and the position of each argument are kept.
 *
 *   const byId = prepared((db, a: { workspaceId: string; mode: Mode; id: string }) =>
 *     scoped(db, a).selectFrom('inbox_conversations').selectAll().where('id', '=', a.id))
 *   await byId.first(db, { ...tenantOf(t), id })
 *
 * Rules (checked when the query is first built): string and number arguments are only used as values —
 * not in arithmetic, string building or identifiers (compute them before the call). The builder may
 * branch on which arguments are `undefined` or `null` and on boolean arguments: those are part of the
 * query's shape, and each shape is built once. So an optional filter is `if (a.status) q = q.where(…)`, and
 * an insert's column list follows the row given. An executor with plugins (the query-plan test records
 * queries through one) runs the builder every time.
 */
export interface Prepared<A, O> {
  all(db: Executor, args: A): Promise<O[]>
  first(db: Executor, args: A): Promise<O | undefined>
  /** For writes: the number of rows changed. */
  run(db: Executor, args: A): Promise<number>
}

const MARK = '\u0000arg:'

/**
 * The SQL texts of prepared queries, each with a statement name: on PostgreSQL the driver sends them as
 * named statements, parsed and planned once per connection (database.ts). Bounded by the number of
 * prepared query shapes in the code, unlike SQL that embeds a list's length.
 */
const statementNames = new Map<string, string>()
export const statementName = (sql: string): string | undefined => statementNames.get(sql)

interface Template {
  sql: string
  query: RootOperationNode
  queryId: CompiledQuery['queryId']
  /** Per parameter: the argument name, or the constant the builder put there. */
  slots: ({ arg: string } | { value: unknown })[]
}

export function prepared<A extends object, O>(build: (db: Executor, args: A) => Compilable<O>): Prepared<A, O> {
  const templates = new Map<string, Template>()

  function compile(db: Executor, args: A): CompiledQuery<O> {
    const executor = db.getExecutor()
    if (executor.plugins.length > 0) return build(db, args).compile()
    const values = args as Record<string, unknown>
    let shape = executor.adapter.constructor.name
    for (const k in values) {
      const v = values[k]
      if (v === undefined) continue
      shape += v === null || typeof v === 'boolean' ? `,${k}=${v}` : `,${k}`
    }
    let t = templates.get(shape)
    if (!t) {
      t = template(db, args)
      templates.set(shape, t)
    }
    const parameters = new Array<unknown>(t.slots.length)
    for (let i = 0; i < t.slots.length; i++) {
      const s = t.slots[i]
      parameters[i] = 'arg' in s ? values[s.arg] : s.value
    }
    return { sql: t.sql, query: t.query, queryId: t.queryId, parameters }
  }

  function template(db: Executor, args: A): Template {
    const marks: Record<string, unknown> = {}
    for (const [k, v] of Object.entries(args)) {
      if (Array.isArray(v)) throw new Error(`prepared query: argument "${k}" is an array; a list's length changes the SQL`)
      if (v !== undefined) marks[k] = v === null || typeof v === 'boolean' ? v : MARK + k
    }
    const c = build(db, marks as A).compile()
    if (c.sql.includes(MARK)) throw new Error(`prepared query: an argument is used as SQL text, not a value: ${c.sql}`)
    const slots = c.parameters.map((p) => {
      if (typeof p === 'string' && p.startsWith(MARK)) {
        const arg = p.slice(MARK.length)
        if (marks[arg] !== p) throw new Error(`prepared query: argument "${arg}" was used in an expression; compute it before the call`)
        return { arg }
      }
      if (typeof p === 'string' && p.includes(MARK)) throw new Error(`prepared query: an argument was used in an expression: ${JSON.stringify(p)}`)
      return { value: p }
    })
    if (!statementNames.has(c.sql)) statementNames.set(c.sql, `svc_${statementNames.size + 1}`)
    return { sql: c.sql, query: c.query, queryId: c.queryId, slots }
  }

  const execute = (db: Executor, args: A): Promise<QueryResult<O>> => db.executeQuery(compile(db, args))
  return {
    all: async (db, args) => (await execute(db, args)).rows,
    first: async (db, args) => (await execute(db, args)).rows[0],
    run: async (db, args) => Number((await execute(db, args)).numAffectedRows ?? 0n),
  }
}
