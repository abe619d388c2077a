import { sql } from 'kysely'
import type { Database } from './database.js'

/** What one reclaim did (for the caller's log line and the tests). */
export interface ReclaimResult {
  engine: Database['engine']
  /** SQLite: the WAL was copied into the database file and truncated to zero bytes. */
  checkpointed?: boolean
  /** SQLite: free pages given back to the file system by `incremental_vacuum`. */
  vacuumedPages?: number
  /** PostgreSQL: tables vacuumed. */
  vacuumedTables?: number
}

/**
 * After an erasure: make the deleted bytes really gone from the files the database keeps (docs/compliance.md
 * "Erasure on disk").
 *
 * SQLite runs with `secure_delete=ON` (database.ts): a deleted row's bytes are overwritten with zeros in
 * its page when it is deleted. The WAL still holds earlier copies of those pages (the frames written when
 * the row was inserted or updated) until a checkpoint: `wal_checkpoint(TRUNCATE)` copies the newest pages
 * into the database file and empties the WAL. `incremental_vacuum` then gives the (zeroed) free pages back
 * when the file was created with `auto_vacuum=INCREMENTAL`. A full VACUUM (which rewrites the whole file,
 * needs twice its size on disk and holds the write lock throughout) is not run here.
 *
 * PostgreSQL: a plain VACUUM (online, no exclusive lock) of the schema's tables removes the dead row
 * versions from tables and indexes and marks their space reusable; the bytes stay in the data files and WAL
 * segments until overwritten (VACUUM FULL rewrites tables, with an exclusive lock: an operator's decision).
 */
export async function reclaimFreedSpace(database: Database): Promise<ReclaimResult> {
  const { db } = database
  if (database.engine === 'sqlite') {
    const mode = (await sql<{ auto_vacuum: number }>`pragma auto_vacuum`.execute(db)).rows[0]?.auto_vacuum
    let vacuumedPages = 0
    if (Number(mode) === 2) {
      const free = Number((await sql<{ freelist_count: number }>`pragma freelist_count`.execute(db)).rows[0]?.freelist_count ?? 0)
      await sql`pragma incremental_vacuum`.execute(db)
      vacuumedPages = free
    }
    // Another connection (the API log's writer) may be mid-write: a busy checkpoint is tried again.
    let checkpointed = false
    for (let attempt = 0; attempt < 5 && !checkpointed; attempt++) {
      const r = (await sql<{ busy: number }>`pragma wal_checkpoint(TRUNCATE)`.execute(db)).rows[0]
      checkpointed = Number(r?.busy ?? 1) === 0
      if (!checkpointed) await new Promise((resolve) => setTimeout(resolve, 50 * (attempt + 1)))
    }
    return { engine: 'sqlite', checkpointed, vacuumedPages }
  }
  const tables = await sql<{ name: string }>`select tablename as name from pg_tables where schemaname = current_schema()`.execute(db)
  for (const t of tables.rows) await sql`vacuum (skip_locked) ${sql.id(t.name)}`.execute(db)
  return { engine: 'postgres', vacuumedTables: tables.rows.length }
}
