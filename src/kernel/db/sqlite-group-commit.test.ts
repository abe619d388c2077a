import assert from 'node:assert/strict'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, afterEach, before, beforeEach, describe, it } from 'node:test'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { createDatabase, type Database } from './database.js'

const sqliteOnly = { skip: process.env.TEST_DB === 'postgres' && 'SQLite only' }

/** Lets other queued work run while a transaction holds the connection. */
const pause = (ms?: number) => new Promise((r) => (ms === undefined ? setImmediate(r) : setTimeout(r, ms)))

describe('SQLite group commit', sqliteOnly, () => {
  let dir: string
  let file: string
  let database: Database
  let statements: string[] = []
  /** A second connection to the file: what another process (or the API log's thread) would see. */
  let outside: SQLite.Database

  const count = (word: string) => statements.filter((s) => s.trim().toLowerCase() === word).length
  const committed = () => (outside.prepare('select n from t order by n').all() as { n: number }[]).map((r) => r.n)
  const insert = (n: number) => (tx: Database['db']) => sql`insert into t (n) values (${n})`.execute(tx)

  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-group-commit-'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))
  beforeEach(async () => {
    file = join(dir, `${Date.now()}-${Math.random()}.sqlite`)
    // A group's time bound is long here (a loaded machine must not split the groups these tests count), but in its own test.
    database = createDatabase(`sqlite:${file}`, { groupCommit: { maxOpenMs: 10_000 }, onStatement: (s) => statements.push(s) })
    await sql`create table t (n integer primary key)`.execute(database.db)
    outside = new SQLite(file)
    statements = []
  })
  afterEach(async () => {
    outside.close()
    await database.close()
  })

  it('transactions that wait for the connection share one COMMIT, and none resolves before it', async () => {
    const resolvedBeforeCommit: number[] = []
    const tx = (n: number) =>
      database.db
        .transaction()
        .execute(async (t) => {
          await insert(n)(t)
          await pause()
        })
        .then(() => {
          if (!committed().includes(n)) resolvedBeforeCommit.push(n)
        })
    await Promise.all([tx(1), tx(2), tx(3)])
    assert.deepEqual(resolvedBeforeCommit, [])
    assert.deepEqual(committed(), [1, 2, 3])
    assert.equal(count('begin immediate'), 1)
    assert.equal(count('commit'), 1)
  })

  it("one member's failure rolls back its own statements only; the others commit", async () => {
    const results = await Promise.allSettled([
      database.db.transaction().execute(insert(1)),
      database.db.transaction().execute(async (t) => {
        await insert(2)(t)
        await insert(1)(t) // the primary key: fails, and 2 must go with it
      }),
      database.db.transaction().execute(insert(3)),
    ])
    assert.deepEqual(
      results.map((r) => r.status),
      ['fulfilled', 'rejected', 'fulfilled'],
    )
    assert.deepEqual(committed(), [1, 3])
    assert.equal(count('commit'), 1)
    assert.equal(count('rollback to group_member'), 1)
  })

  it('a statement outside a transaction waits for the group to commit, and sees only committed rows', async () => {
    let seen: number[] = []
    const member = database.db.transaction().execute(async (t) => {
      await insert(1)(t)
      await pause(5)
    })
    // Queued while the member holds the connection: it runs after the group's COMMIT, not inside the group.
    const read = sql<{ n: number }>`select n from t order by n`.execute(database.db).then((r) => {
      seen = r.rows.map((x) => x.n)
      assert.deepEqual(committed(), [1], 'the read ran after the COMMIT')
    })
    await Promise.all([member, read])
    assert.deepEqual(seen, [1])
    const commitAt = statements.findIndex((s) => s.trim().toLowerCase() === 'commit')
    const readAt = statements.findIndex((s) => s.startsWith('select n from t'))
    assert.ok(commitAt >= 0 && commitAt < readAt, statements.join('\n'))
  })

  it('a write outside a transaction is committed when it returns, even while transactions queue', async () => {
    const member = database.db.transaction().execute(async (t) => {
      await insert(1)(t)
      await pause()
    })
    const plain = sql`insert into t (n) values (2)`.execute(database.db).then(() => assert.ok(committed().includes(2)))
    const later = database.db.transaction().execute(insert(3))
    await Promise.all([member, plain, later])
    assert.deepEqual(committed(), [1, 2, 3])
  })

  it('a failed COMMIT rejects every member, and nothing of the group stays', async () => {
    await sql`create table parent (id integer primary key)`.execute(database.db)
    await sql`create table child (parent integer references parent (id) deferrable initially deferred)`.execute(database.db)
    statements = []
    const results = await Promise.allSettled([
      database.db.transaction().execute(insert(1)),
      // Its deferred foreign key is checked at the COMMIT, which then fails for the whole group.
      database.db.transaction().execute((t) => sql`insert into child (parent) values (42)`.execute(t)),
      database.db.transaction().execute(insert(3)),
    ])
    assert.deepEqual(
      results.map((r) => r.status),
      ['rejected', 'rejected', 'rejected'],
    )
    assert.deepEqual(committed(), [])
    // The connection is usable afterwards, and a lone transaction commits on its own.
    await database.db.transaction().execute(insert(4))
    assert.deepEqual(committed(), [4])
  })

  it('a group closes at 32 members, so each COMMIT is bounded', async () => {
    await Promise.all(Array.from({ length: 70 }, (_, i) => database.db.transaction().execute(insert(i))))
    assert.equal(committed().length, 70)
    assert.equal(count('commit'), 3)
  })

  it('a group closes once it has been open 5 ms, so another process gets the write lock', async () => {
    const timed = createDatabase(`sqlite:${file}`, { groupCommit: true, onStatement: (s) => statements.push(s) })
    try {
      await Promise.all(
        Array.from({ length: 6 }, (_, i) =>
          timed.db.transaction().execute(async (t) => {
            await insert(i)(t)
            await pause(3)
          }),
        ),
      )
    } finally {
      await timed.close()
    }
    assert.equal(committed().length, 6)
    assert.ok(count('commit') >= 3, `${count('commit')} commits`)
  })

  it('inside db.connection() (the migrator): statements and transactions in turn, each committed', async () => {
    await database.db.connection().execute(async (c) => {
      await sql`insert into t (n) values (1)`.execute(c)
      await c.transaction().execute(insert(2))
      await c.transaction().execute(insert(3))
      await sql`insert into t (n) values (4)`.execute(c)
    })
    assert.deepEqual(committed(), [1, 2, 3, 4])
  })

  it('DATABASE_GROUP_COMMIT=off (the default): each transaction commits alone', async () => {
    const off = createDatabase(`sqlite:${join(dir, 'off.sqlite')}`, { onStatement: (s) => statements.push(s) })
    try {
      await sql`create table t (n integer primary key)`.execute(off.db)
      statements = []
      await Promise.all([1, 2, 3].map((n) => off.db.transaction().execute(insert(n))))
      assert.equal(count('commit'), 3)
    } finally {
      await off.close()
    }
  })
})
