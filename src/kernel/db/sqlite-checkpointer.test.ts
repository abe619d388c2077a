// test-engines: sqlite
import assert from 'node:assert/strict'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { setTimeout as sleep } from 'node:timers/promises'
import SQLite from 'better-sqlite3'
import { sql } from 'kysely'
import { createDatabase } from './database.js'
import { SqliteCheckpointer } from './sqlite-checkpointer.js'
import { SqliteThread } from './sqlite-thread.js'

/** 150 commits of 4 KiB each: ~450 pages, below SQLite's automatic checkpoint (1,000 pages). */
async function write(url: string, checkpointThread: boolean) {
  const database = createDatabase(url, { checkpointThread: checkpointThread && { intervalMs: 10 } })
  await sql`create table t (n integer primary key, b blob)`.execute(database.db)
  for (let n = 0; n < 150; n++) {
    await database.db.transaction().execute(async (tx) => {
      await sql`insert into t (n, b) values (${n}, randomblob(4096))`.execute(tx)
    })
  }
  return database
}

async function until(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms
  while (Date.now() < end) {
    if (check()) return true
    await sleep(20)
  }
  return check()
}

describe('WAL checkpoints on a thread of their own', () => {
  let dir: string
  before(() => {
    dir = mkdtempSync(join(tmpdir(), 'svc-checkpoint-'))
  })
  after(() => rmSync(dir, { recursive: true, force: true }))

  it('copies the WAL into the database file while the connection never reaches its own automatic checkpoint', async () => {
    const file = join(dir, 'on.sqlite')
    const database = await write(`sqlite:${file}`, true)
    try {
      // Only the thread can have moved the rows into the file: the connection's bound is 4,000 pages.
      assert.ok(await until(() => statSync(file).size > 150 * 4096), `the database file holds ${statSync(file).size} bytes`)
      const bound = (await sql<{ wal_autocheckpoint: number }>`pragma wal_autocheckpoint`.execute(database.db)).rows[0]
      assert.equal(bound.wal_autocheckpoint, 4000)
      // The next write finds the WAL copied and starts it over: it stays small.
      await sql`insert into t (n, b) values (1000, randomblob(16))`.execute(database.db)
      const probe = new SQLite(file, { readonly: true })
      try {
        assert.equal((probe.prepare('select count(*) as n from t').get() as { n: number }).n, 151)
      } finally {
        probe.close()
      }
    } finally {
      await database.close()
    }
  })

  it('without the thread the same writes stay in the WAL (the test above can fail)', async () => {
    const file = join(dir, 'off.sqlite')
    const database = await write(`sqlite:${file}`, false)
    try {
      await sleep(200)
      assert.ok(statSync(file).size < 50 * 4096, `the database file holds ${statSync(file).size} bytes`)
      assert.ok(statSync(`${file}-wal`).size > 150 * 4096)
    } finally {
      await database.close()
    }
  })

  it('starts the thread only once the process writes, and the thread’s close() ends it', async () => {
    const file = join(dir, 'lazy.sqlite')
    const connection = new SQLite(file)
    connection.pragma('journal_mode = WAL')
    const thread = new SqliteThread(file)
    const checkpointer = new SqliteCheckpointer(connection, thread, { intervalMs: 10, boundPages: 4000, startAfterCommits: 3 })
    checkpointer.committed()
    checkpointer.committed()
    assert.equal(thread.running, false)
    checkpointer.committed()
    assert.equal(thread.running, true)
    assert.equal(checkpointer.running, true)
    await thread.close()
    assert.equal(thread.running, false)
    assert.equal(checkpointer.failed, null, 'a close is not a failure')
    checkpointer.committed()
    assert.equal(thread.running, false, 'a closed thread does not start again')
    connection.close()
  })

  it('a thread that cannot open the database gives the connection its automatic checkpoint back', async () => {
    const file = join(dir, 'fallback.sqlite')
    const connection = new SQLite(file)
    connection.pragma('journal_mode = WAL')
    const thread = new SqliteThread(join(dir, 'missing', 'x.sqlite'))
    const checkpointer = new SqliteCheckpointer(connection, thread, { intervalMs: 10, boundPages: 4000, startAfterCommits: 1 })
    checkpointer.committed()
    assert.equal(connection.pragma('wal_autocheckpoint', { simple: true }), 4000)
    assert.ok(await until(() => checkpointer.failed !== null))
    assert.equal(connection.pragma('wal_autocheckpoint', { simple: true }), 1000)
    assert.ok(thread.failed, 'the thread reports its failure to its other users too')
    await thread.close()
    connection.close()
  })
})
