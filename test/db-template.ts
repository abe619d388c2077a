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
        }
        return name
      } finally {
        await c.query('select pg_advisory_unlock($1)', [LOCK])
      }
    })
  })()
  return templateName
}

/** A database of its own with every migration applied; `drop` removes it. */
export async function clonePgDatabase(url: string, migrate: (url: string) => Promise<void>): Promise<{ url: string; drop(): Promise<void> }> {
  const tpl = await template(url, migrate)
  const name = `t_${randomBytes(6).toString('hex')}`
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
  return {
    url: withDatabase(url, name),
    // A database something still holds a session on cannot be dropped (PostgreSQL waits 5 s, then refuses),
    // and WITH (FORCE) would end that session with an error in the test that holds it (a second app a test
    // built and left open). Such a clone is listed and dropped by a later clone once its sessions are gone.
    async drop() {
      await admin(url, async (c) => {
        const leave = () => c.query('insert into svc_test_leftovers (name) values ($1) on conflict do nothing', [name])
        if (await inUse(c, name)) return void (await leave())
        // A session that came back meanwhile (a reconnecting client) refuses the drop after 5 s: leave it too.
        try {
          await c.query(`drop database if exists "${name}"`)
        } catch (err) {
          if ((err as { code?: string }).code !== '55006') throw err
          await leave()
        }
      })
    },
  }
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
