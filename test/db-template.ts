// Test databases copied from a migrated template instead of migrated again for every test app. PostgreSQL:
// `CREATE DATABASE … TEMPLATE` copies the files of a database that already has every migration (~0.1–0.3 s),
// where a fresh schema ran every migration again (~2–3 s on CI's 2 cores, and Kysely's existence checks read
// the catalog of every other test's schema). SQLite: a copy of a migrated file. A template is made once per
// migration set by whichever test process needs it first (PostgreSQL under an advisory lock); its name
// carries a hash of the migration sources, so a changed migration makes a new one.
import { createHash, randomBytes } from 'node:crypto'
import { copyFileSync, existsSync, readdirSync, readFileSync, renameSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'

const LOCK = 727_310_001
let templateName: Promise<string> | null = null
let sqliteTemplate: Promise<string> | null = null
const migrationHash = () => createHash('sha256').update(migrationSources().join('\n')).digest('hex').slice(0, 16)

/** Every `*migrations*.ts` under src/, with its path: what the template's schema is made of. */
function migrationSources(dir = 'src', out: string[] = []): string[] {
  for (const name of readdirSync(dir).sort()) {
    const p = join(dir, name)
    if (statSync(p).isDirectory()) migrationSources(p, out)
    else if (/migrations?\.ts$/.test(name) && !name.endsWith('.test.ts')) out.push(`${p}\n${readFileSync(p, 'utf8')}`)
  }
  return out
}

const withDatabase = (url: string, name: string) => {
  const u = new URL(url)
  u.pathname = `/${name}`
  return u.toString()
}

async function admin<T>(url: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url })
  await c.connect()
  try {
    return await fn(c)
  } finally {
    await c.end()
  }
}

/** The template's name, made (migrated through `migrate(url)`) if this migration set has none yet. */
function template(url: string, migrate: (url: string) => Promise<void>): Promise<string> {
  templateName ??= (async () => {
    const name = `svc_tpl_${migrationHash()}`
    return admin(url, async (c) => {
      await c.query('select pg_advisory_lock($1)', [LOCK])
      try {
        // Made here, under the lock: CREATE … IF NOT EXISTS from processes at once can still collide.
        await c.query('create table if not exists svc_test_leftovers (name text primary key)')
        // When each template was last taken: runs of other migration sets at the same time (another checkout, a
        // branch) keep theirs; only templates no run has taken for an hour go.
        await c.query('create table if not exists svc_test_templates (name text primary key, used_at timestamptz not null)')
        await c.query('insert into svc_test_templates (name, used_at) values ($1, now()) on conflict (name) do update set used_at = now()', [name])
        // Emptied clones ready for the next app (clonePgDatabase), by template.
        await c.query('create table if not exists svc_test_pool (name text primary key, template text not null, fingerprint text not null)')
        await c.query('alter table svc_test_pool add column if not exists uses integer not null default 0')
        // Every clone while an app may hold it: one a killed test process never gave back is dropped here, later.
        await c.query('create table if not exists svc_test_clones (name text primary key, taken_at timestamptz not null)')
        for (const r of (await c.query("select name from svc_test_clones where taken_at < now() - interval '1 hour'")).rows as { name: string }[]) {
          if (await inUse(c, r.name)) continue
          await c.query(`drop database if exists "${r.name}"`).catch(() => undefined)
          await c.query('delete from svc_test_clones where name = $1', [r.name])
        }
        const exists = await c.query('select 1 from pg_database where datname = $1', [name])
        if (exists.rowCount) return name
        // Built under another name and renamed when complete: a run killed half-way leaves no half template.
        const building = `svc_tplb_${randomBytes(6).toString('hex')}`
        await c.query(`create database "${building}"`)
        await migrate(withDatabase(url, building))
        await c.query(`alter database "${building}" rename to "${name}"`)
        // Templates of earlier migration sets no run has taken for an hour (and builds a killed run left) go.
        const old = await c.query(
          `select datname from pg_database d where (datname like 'svc\\_tpl\\_%' or datname like 'svc\\_tplb\\_%') and datname <> $1
             and not exists (select 1 from svc_test_templates t where t.name = d.datname and t.used_at > now() - interval '1 hour')`,
          [name],
        )
        for (const r of old.rows as { datname: string }[]) {
          await c.query(`drop database if exists "${r.datname}" with (force)`).catch(() => undefined)
          await c.query('delete from svc_test_templates where name = $1', [r.datname])
          // Its pooled clones with it.
          for (const p of (await c.query('delete from svc_test_pool where template = $1 returning name', [r.datname])).rows as { name: string }[])
            await c.query(`drop database if exists "${p.name}" with (force)`).catch(() => undefined)
        }
        return name
      } finally {
        await c.query('select pg_advisory_unlock($1)', [LOCK])
      }
    })
  })()
  return templateName
}

/**
 * A database of its own with every migration applied; `drop` gives it back. PostgreSQL spends ~0.5 s of CPU on each
 * `CREATE DATABASE … TEMPLATE` (it writes the template's ~11 MB, catalogs included, into the WAL), and the suite's
 * PostgreSQL pass makes hundreds of apps: a dropped clone is emptied instead (the tables that hold rows truncated,
 * ~30–60 ms) and kept in a pool (`svc_test_pool`, in the admin database) that the next app of any test process takes. It goes back only as
 * its template made it: no session left on it, the same catalog as when it was made (a test that changed its
 * schema, grants or settings makes it dropped instead) and every table but the migrations' empty again.
 * SVC_TEST_DB_POOL=0 clones and drops every time.
 */
export async function clonePgDatabase(url: string, migrate: (url: string) => Promise<void>): Promise<{ url: string; drop(): Promise<void> }> {
  const tpl = await template(url, migrate)
  const pooling = process.env.SVC_TEST_DB_POOL !== '0'
  const taken = pooling ? await admin(url, (c) => takePooled(c, tpl)) : null
  const name = taken?.name ?? `t_${randomBytes(6).toString('hex')}`
  if (!taken) {
    // Copying needs the template to have no session; another process's copy of it may be running: retry.
    for (let attempt = 1; ; attempt++) {
      try {
        await admin(url, async (c) => {
          if (attempt === 1) await dropLeftovers(c)
          await c.query(`create database "${name}" template "${tpl}"`)
        })
        break
      } catch (err) {
        if ((err as { code?: string }).code !== '55006' || attempt >= 20) throw err
        await new Promise((r) => setTimeout(r, 25 * attempt))
      }
    }
  }
  await admin(url, (c) => c.query('insert into svc_test_clones (name, taken_at) values ($1, now()) on conflict (name) do update set taken_at = now()', [name]))
  // What the clone is as made, to compare with when it comes back (null: it may not be pooled).
  const pristine = taken?.fingerprint ?? (pooling ? await inside(url, name, pristineFingerprint) : null)
  return {
    url: withDatabase(url, name),
    // A database something still holds a session on cannot be dropped (PostgreSQL waits 5 s, then refuses),
    // and WITH (FORCE) would end that session with an error in the test that holds it (a second app a test
    // built and left open). Such a clone is listed and dropped by a later clone once its sessions are gone.
    async drop() {
      await admin(url, async (c) => {
        const leave = () => c.query('insert into svc_test_leftovers (name) values ($1) on conflict do nothing', [name])
        if (await inUse(c, name)) return void (await leave())
        // A clone that cannot be emptied (a statement refused) is dropped like one that changed.
        // After MAX_USES lives it is dropped all the same (a bound on what a long-lived pool may carry along).
        const uses = (taken?.uses ?? 0) + 1
        const reusable = pristine !== null && uses < MAX_USES && (await inside(url, name, (db) => emptied(db, pristine)).catch(() => false))
        if (reusable && !(await inUse(c, name))) {
          await c.query('insert into svc_test_pool (name, template, fingerprint, uses) values ($1, $2, $3, $4) on conflict do nothing', [name, tpl, pristine, uses])
          await c.query('delete from svc_test_clones where name = $1', [name])
          return
        }
        // A session that came back meanwhile (a reconnecting client) refuses the drop after 5 s: leave it too.
        try {
          await c.query(`drop database if exists "${name}"`)
          await c.query('delete from svc_test_clones where name = $1', [name])
        } catch (err) {
          if ((err as { code?: string }).code !== '55006') throw err
          await leave()
        }
      })
    },
  }
}

const MAX_USES = 50

/** A pooled clone of `tpl`, taken (no other process can take it), or null. One that has gone meanwhile is skipped. */
async function takePooled(c: pg.Client, tpl: string): Promise<{ name: string; fingerprint: string; uses: number } | null> {
  for (;;) {
    const r = await c.query('delete from svc_test_pool where name = (select name from svc_test_pool where template = $1 limit 1 for update skip locked) returning name, fingerprint, uses', [tpl])
    const row = r.rows[0] as { name: string; fingerprint: string; uses: number } | undefined
    if (!row) return null
    if ((await c.query('select 1 from pg_database where datname = $1', [row.name])).rowCount) return row
  }
}

async function inside<T>(url: string, name: string, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  return admin(withDatabase(url, name), fn)
}

// The clone's catalog, as far as a test could change it: relations with their columns and grants, indexes,
// constraints, triggers, functions, schemas, extensions and the database's own settings.
const FINGERPRINT = `
  select md5(coalesce(string_agg(x, E'\n' order by x), '')) as f from (
    select 'c ' || n.nspname || '.' || c.relname || ' ' || c.relkind::text || ' ' || coalesce(c.relacl::text, '') || ' ' ||
      coalesce((select string_agg(a.attname || ' ' || format_type(a.atttypid, a.atttypmod) || ' ' || a.attnotnull::text, ',' order by a.attnum)
                from pg_attribute a where a.attrelid = c.oid and a.attnum > 0 and not a.attisdropped), '')
      from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all select 'i ' || pg_get_indexdef(i.indexrelid) from pg_index i join pg_class c on c.oid = i.indrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast')
    union all select 'k ' || conrelid::regclass::text || ' ' || conname || ' ' || pg_get_constraintdef(k.oid) from pg_constraint k join pg_namespace n on n.oid = k.connamespace
      where n.nspname not in ('pg_catalog', 'information_schema')
    union all select 't ' || tgrelid::regclass::text || ' ' || tgname || ' ' || tgenabled::text from pg_trigger where not tgisinternal
    union all select 'p ' || p.oid::regprocedure::text from pg_proc p join pg_namespace n on n.oid = p.pronamespace where n.nspname not in ('pg_catalog', 'information_schema')
    union all select 'n ' || nspname || ' ' || coalesce(nspacl::text, '') from pg_namespace
    union all select 'e ' || extname from pg_extension
    union all select 's ' || array_to_string(setconfig, ' ') from pg_db_role_setting where setdatabase = (select oid from pg_database where datname = current_database())
  ) f(x)`

// The tables a clone empties: every ordinary table but Kysely's record of the migrations, in any schema the template has.
const DATA_TABLES = `
  select format('%I.%I', n.nspname, c.relname) as t from pg_class c join pg_namespace n on n.oid = c.relnamespace
   where c.relkind in ('r', 'p') and n.nspname not in ('pg_catalog', 'information_schema', 'pg_toast') and c.relname not like 'kysely\\_migration%'`

/** The data tables that hold at least one row. */
async function filledTables(c: pg.Client): Promise<string[]> {
  const filled: string[] = []
  for (const { t } of (await c.query(DATA_TABLES)).rows as { t: string }[]) if ((await c.query(`select 1 from ${t} limit 1`)).rowCount) filled.push(t)
  return filled
}

/** A fresh clone's fingerprint, or null where the template holds rows of its own (a seed: an emptied clone would lack them). */
async function pristineFingerprint(c: pg.Client): Promise<string | null> {
  if ((await filledTables(c)).length > 0) return null
  return ((await c.query(FINGERPRINT)).rows[0] as { f: string }).f
}

/**
 * Empties a returned clone; true when it is as its template made it (its catalog unchanged), so it can be pooled. The
 * tables that hold rows are truncated (new, empty files, as in a fresh clone: new rows come in the order they are
 * written, which a DELETE's reused space would not keep for a test reading without ORDER BY); CASCADE takes the
 * empty tables that point at them too. ~30–60 ms for the dozen tables a test fills, against ~0.5 s for a new clone.
 */
async function emptied(c: pg.Client, pristine: string): Promise<boolean> {
  if (((await c.query(FINGERPRINT)).rows[0] as { f: string }).f !== pristine) return false
  const filled = await filledTables(c)
  if (filled.length > 0) {
    await c.query(`truncate ${filled.join(', ')} restart identity cascade`)
    // And the planner's statistics of the earlier life (an ANALYZE's column statistics survive a TRUNCATE): with them
    // a query picks another plan than in a fresh clone, and rows read without ORDER BY come in another order.
    await c.query(`delete from pg_statistic where starelid = any($1::regclass[])`, [filled])
  }
  for (const { s } of (await c.query(`select format('%I.%I', schemaname, sequencename) as s from pg_sequences`)).rows as { s: string }[]) await c.query(`alter sequence ${s} restart`)
  return true
}

async function inUse(c: pg.Client, name: string): Promise<boolean> {
  const r = await c.query('select 1 from pg_stat_activity where datname = $1 and pid <> pg_backend_pid() limit 1', [name])
  return (r.rowCount ?? 0) > 0
}

/** Clones listed as left behind whose sessions have ended since. */
async function dropLeftovers(c: pg.Client): Promise<void> {
  for (const { name } of (await c.query('select name from svc_test_leftovers')).rows as { name: string }[]) {
    if (await inUse(c, name)) continue
    await c.query(`drop database if exists "${name}"`).catch(() => undefined)
    await c.query('delete from svc_test_leftovers where name = $1', [name])
  }
}

/**
 * SQLite: `target` becomes a copy of a migrated database file. The template is built under a name of its
 * own and renamed into place when complete (closed first: its WAL checkpointed into the file), so a copy
 * never sees half of one; two processes building at once both rename a whole file.
 */
export async function copySqliteTemplate(target: string, migrate: (url: string) => Promise<void>): Promise<void> {
  sqliteTemplate ??= (async () => {
    const path = join(tmpdir(), `svc-sqlite-tpl-${migrationHash()}.sqlite`)
    if (!existsSync(path)) {
      const building = `${path}.${process.pid}.${randomBytes(4).toString('hex')}`
      await migrate(`sqlite:${building}`)
      for (const side of ['-wal', '-shm']) rmSync(building + side, { force: true })
      renameSync(building, path)
    }
    return path
  })()
  copyFileSync(await sqliteTemplate, target)
}
