import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql, type Kysely, type KyselyPlugin } from 'kysely'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../../test/helpers.js'
import { createDatabase, type Database, type Executor } from './database.js'
import { prepared } from './prepared.js'

interface Row {
  id: string
  team: string
  status: string
  owner: string | null
  n: number
}
// A scratch table of the test's own, so the rules are checked on real SQL of both engines.
const t = (db: Executor) => db as unknown as Kysely<{ prepared_rows: Row }>

describe(`prepared queries (${ENGINE})`, () => {
  let tdb: TestDatabase
  let database: Database
  before(async () => {
    tdb = await createTestDatabase()
    database = createDatabase(tdb.env.DATABASE_URL, { schema: tdb.env.DATABASE_SCHEMA ?? null })
    await sql`create table prepared_rows (id text primary key, team text not null, status text not null, owner text, n integer not null)`.execute(database.db)
    for (let i = 0; i < 10; i++) {
      await insert.run(database.db, { id: `r${i}`, team: i < 6 ? 'a' : 'b', status: i % 2 ? 'open' : 'closed', owner: i % 3 ? `m${i % 3}` : null, n: i })
    }
  })
  after(async () => {
    await database.close()
    await tdb.drop()
  })

  const insert = prepared((db, row: Row) => t(db).insertInto('prepared_rows').values(row))
  const list = prepared((db, a: { team: string; status?: string; owner?: string | null; after?: string; take: number; lock?: boolean }) => {
    let q = t(db).selectFrom('prepared_rows').selectAll().where('team', '=', a.team)
    if (a.status) q = q.where('status', '=', a.status)
    if (a.owner !== undefined) q = a.owner === null ? q.where('owner', 'is', null) : q.where('owner', '=', a.owner)
    if (a.after) q = q.where('id', '>', a.after)
    return q.orderBy('id').limit(a.take)
  })
  const ids = (rows: Row[]) => rows.map((r) => r.id)

  it('runs with new arguments each time, the same rows as the builder would return', async () => {
    assert.deepEqual(ids(await list.all(database.db, { team: 'a', take: 3 })), ['r0', 'r1', 'r2'])
    assert.deepEqual(ids(await list.all(database.db, { team: 'b', take: 10 })), ['r6', 'r7', 'r8', 'r9'])
    const built = await t(database.db).selectFrom('prepared_rows').selectAll().where('team', '=', 'a').orderBy('id').limit(2).execute()
    assert.deepEqual(await list.all(database.db, { team: 'a', take: 2 }), built)
    assert.equal(typeof (await list.first(database.db, { team: 'a', take: 1 }))!.n, 'number')
  })

  it('optional, null and boolean arguments are part of the shape: each shape is its own statement', async () => {
    assert.deepEqual(ids(await list.all(database.db, { team: 'a', status: 'open', take: 10 })), ['r1', 'r3', 'r5'])
    assert.deepEqual(ids(await list.all(database.db, { team: 'a', owner: null, take: 10 })), ['r0', 'r3'])
    assert.deepEqual(ids(await list.all(database.db, { team: 'a', owner: 'm1', take: 10 })), ['r1', 'r4'])
    assert.deepEqual(ids(await list.all(database.db, { team: 'a', status: 'closed', owner: 'm2', after: 'r0', take: 10 })), ['r2'])
    // After the other shapes, the first one still answers as before.
    assert.deepEqual(ids(await list.all(database.db, { team: 'a', take: 3 })), ['r0', 'r1', 'r2'])
  })

  it('writes report the rows they changed, inside a transaction too', async () => {
    const bump = prepared((db, a: { team: string; by: number }) =>
      t(db)
        .updateTable('prepared_rows')
        .set((eb) => ({ n: eb('n', '+', a.by) }))
        .where('team', '=', a.team),
    )
    assert.equal(await bump.run(database.db, { team: 'b', by: 100 }), 4)
    await database.db.transaction().execute(async (tx) => {
      assert.equal(await bump.run(tx, { team: 'b', by: -100 }), 4)
    })
    assert.deepEqual(
      (await list.all(database.db, { team: 'b', take: 10 })).map((r) => r.n),
      [6, 7, 8, 9],
    )
  })

  it('refuses arguments used in expressions, as SQL text, or as lists', async () => {
    const arithmetic = prepared((db, a: { take: number }) =>
      t(db)
        .selectFrom('prepared_rows')
        .selectAll()
        .limit(a.take + 1),
    )
    await assert.rejects(arithmetic.all(database.db, { take: 1 }), /used in an expression/)
    const text = prepared((db, a: { column: string }) => t(db).selectFrom('prepared_rows').select(sql.ref(a.column).as('x')))
    await assert.rejects(text.all(database.db, { column: 'id' }), /used as SQL text/)
    const inList = prepared((db, a: { ids: string[] }) => t(db).selectFrom('prepared_rows').selectAll().where('id', 'in', a.ids))
    await assert.rejects(inList.all(database.db, { ids: ['r1'] }), /is an array/)
  })

  it('an executor with plugins runs the builder every time (what the query-plan test records)', async () => {
    let seen = 0
    const counting: KyselyPlugin = {
      transformQuery: ({ node }) => (seen++, node),
      transformResult: async ({ result }) => result,
    }
    const db = database.db.withPlugin(counting)
    await list.all(db, { team: 'a', take: 1 })
    await list.all(db, { team: 'a', take: 1 })
    assert.equal(seen, 2)
  })
})

describe(`prepared queries on PostgreSQL are named statements`, { skip: ENGINE !== 'postgres' }, () => {
  it('each prepared text is parsed once per connection', async () => {
    const tdb = await createTestDatabase()
    const database = createDatabase(tdb.env.DATABASE_URL, { schema: tdb.env.DATABASE_SCHEMA, poolSize: 1 })
    try {
      const one = prepared((db, a: { x: string }) => db.selectNoFrom(sql<string>`${a.x}::text`.as('x')))
      await database.db.connection().execute(async (c) => {
        assert.equal((await one.first(c, { x: 'a' }))?.x, 'a')
        assert.equal((await one.first(c, { x: 'b' }))?.x, 'b')
        const named = await sql<{ n: number }>`select count(*)::int as n from pg_prepared_statements where statement like 'select $1::text as "x"%'`.execute(c)
        assert.equal(named.rows[0].n, 1)
      })
    } finally {
      await database.close()
      await tdb.drop()
    }
  })
})
