import { Migrator, type Kysely, type Migration, type MigrationProvider } from 'kysely'
import type { Engine } from './database.js'

/** A migration gets the engine so the rare non-portable statement can branch on it. */
export interface ModuleMigration {
  /** Sortable and unique across modules: `<yyyymmddhhmm>_<module>_<what>`. */
  name: string
  up(db: Kysely<any>, engine: Engine): Promise<void>
  down?(db: Kysely<any>, engine: Engine): Promise<void>
}

/** Merges every module's migrations into one ordered list for Kysely's Migrator. */
class ModulesMigrationProvider implements MigrationProvider {
  constructor(
    private readonly migrations: ModuleMigration[],
    private readonly engine: Engine,
  ) {}
  async getMigrations(): Promise<Record<string, Migration>> {
    const out: Record<string, Migration> = {}
    for (const m of [...this.migrations].sort((a, b) => a.name.localeCompare(b.name))) {
      if (out[m.name]) throw new Error(`duplicate migration name ${m.name}`)
      out[m.name] = {
        up: (db) => m.up(db, this.engine),
        down: m.down ? (db) => m.down!(db, this.engine) : undefined,
      }
    }
    return out
  }
}

export async function migrateToLatest(db: Kysely<any>, engine: Engine, migrations: ModuleMigration[], schema: string | null = null): Promise<string[]> {
  // Name the schema explicitly: Kysely's table-existence check otherwise sees other schemas' tables.
  const migrator = new Migrator({
    db,
    provider: new ModulesMigrationProvider(migrations, engine),
    ...(schema ? { migrationTableSchema: schema } : {}),
  })
  for (let attempt = 1; ; attempt++) {
    const { error, results } = await migrator.migrateToLatest()
    // Kysely's table-existence check reads the catalog of every schema (and calls pg_get_serial_sequence
    // on every column); a schema, table or column dropped by someone else at that moment (parallel test
    // runs, another tenant database) fails it with 3F000, 42P01 or 42703. Harmless: retry. Each migration
    // runs in its own transaction, so a real error in one of ours fails every attempt the same way.
    const e = error as { code?: string; message?: string } | undefined
    const raced = e && (e.code === '42P01' || e.code === '42703' || (e.code === '3F000' && !(schema && e.message?.includes(`"${schema}"`))))
    if (raced && attempt < 5) {
      await new Promise((r) => setTimeout(r, 50 * attempt))
      continue
    }
    // eslint-disable-next-line @typescript-eslint/only-throw-error -- the migration's own error, rethrown as Kysely caught it
    if (error) throw error
    return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName)
  }
}
