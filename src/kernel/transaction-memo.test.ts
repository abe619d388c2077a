import assert from 'node:assert/strict'
import { after, before, describe, it } from 'node:test'
import { sql, type Kysely } from 'kysely'
import { createTestDatabase, ENGINE, type TestDatabase } from '../../test/helpers.js'
import { createDatabase, type Database, type Executor } from './db/database.js'
import { keyOf, TransactionMemo } from './transaction-memo.js'

interface Row {
  id: string
  workspace_id: string
  label: string
}
// A scratch table of the test's own: the memo is checked against real reads and writes of both engines.
const t = (db: Executor) => db as unknown as Kysely<{ memo_rows: Row }>
const A = { workspaceId: 'ws_a', mode: 'live' }
const B = { workspaceId: 'ws_b', mode: 'live' }

describe(`transaction memo (${ENGINE})`, () => {
  let tdb: TestDatabase
  let database: Database
  let reads = 0
  const memo = new TransactionMemo<Row | undefined>()
  const find = (db: Executor, tenant: typeof A, id: string) =>
    memo.read(db, keyOf(tenant, id), () => t(db).selectFrom('memo_rows').selectAll().where('workspace_id', '=', tenant.workspaceId).where('id', '=', id).executeTakeFirst())
  const relabel = async (db: Executor, id: string, label: string) => {
    await t(db).updateTable('memo_rows').set({ label }).where('id', '=', id).execute()
    memo.forget(db)
  }

  before(async () => {
    tdb = await createTestDatabase()
    database = createDatabase(tdb.env.DATABASE_URL, {
      schema: tdb.env.DATABASE_SCHEMA ?? null,
      onStatement: (s) => {
        if (/^\s*select .*memo_rows/i.test(s)) reads++
      },
    })
    await sql`create table memo_rows (id text primary key, workspace_id text not null, label text not null)`.execute(database.db)
    await t(database.db).insertInto('memo_rows').values({ id: 'r1', workspace_id: 'ws_a', label: 'first' }).execute()
  })
  after(async () => {
    await database.close()
    await tdb.drop()
  })

  it('one read per transaction and key; a write in it forgets; the next transaction reads again', async () => {
    reads = 0
    await database.db.transaction().execute(async (tx) => {
      const one = await find(tx, A, 'r1')
      assert.equal(await find(tx, A, 'r1'), one)
      assert.equal(reads, 1)
      // Not found is an answer too.
      assert.equal(await find(tx, A, 'r9'), undefined)
      assert.equal(await find(tx, A, 'r9'), undefined)
      assert.equal(reads, 2)
      await relabel(tx, 'r1', 'second')
      assert.equal((await find(tx, A, 'r1'))?.label, 'second')
      assert.equal(reads, 3)
    })
    await relabel(database.db, 'r1', 'third')
    await database.db.transaction().execute(async (tx) => {
      assert.equal((await find(tx, A, 'r1'))?.label, 'third')
      assert.equal(reads, 4)
    })
  })

  it('never answers for another tenant: its key names the workspace', async () => {
    reads = 0
    await database.db.transaction().execute(async (tx) => {
      assert.equal((await find(tx, A, 'r1'))?.id, 'r1')
      assert.equal(await find(tx, B, 'r1'), undefined)
      assert.equal(reads, 2)
    })
  })

  it('remembers nothing on the pool, nor a failed read', async () => {
    reads = 0
    await find(database.db, A, 'r1')
    await find(database.db, A, 'r1')
    assert.equal(reads, 2)
    await database.db.transaction().execute(async (tx) => {
      let loads = 0
      const failing = () => {
        loads++
        return Promise.reject(new Error('no'))
      }
      await assert.rejects(memo.read(tx, 'k', failing))
      await assert.rejects(memo.read(tx, 'k', failing))
      assert.equal(loads, 2)
    })
  })
})
