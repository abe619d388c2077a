import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { createDatabase, type Database } from './database.js'

// A second connection to the same file stands for the API log's writer thread.
describe('SQLite transactions and a second writer', { skip: process.env.TEST_DB === 'postgres' && 'SQLite only' }, () => {
  let dir: string
  let database: Database
  let other: SQLite.Database
  before(async () => {
    dir = mkdtempSync(join(tmpdir(), 'svc-sqlite-tx-'))
    database = createDatabase(`sqlite:${join(dir, 'db.sqlite')}`)
    await sql`create table t (n integer)`.execute(database.db)
    other = new SQLite(join(dir, 'db.sqlite'))
    other.pragma('busy_timeout = 0')
  })
  after(async () => {
    other.close()
    await database.close()
    rmSync(dir, { recursive: true, force: true })
  })

  it('a transaction holds the write lock from its start, so a write between its read and its write cannot make it fail', async () => {
    await database.db.transaction().execute(async (tx) => {
      await sql`select count(*) from t`.execute(tx)
      // Deferred, the other connection would commit here and the write below would fail with SQLITE_BUSY.
      assert.throws(() => other.prepare('insert into t (n) values (1)').run(), /busy|locked/i)
      await sql`insert into t (n) values (2)`.execute(tx)
    })
    other.prepare('insert into t (n) values (3)').run()
    const rows = await sql<{ n: number }>`select n from t order by n`.execute(database.db)
    assert.deepEqual(
      rows.rows.map((r) => r.n),
      [2, 3],
    )
  })
})
