import assert from 'node:assert/strict'
import { randomBytes } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import type { InjectOptions, LightMyRequestResponse } from 'fastify'
import { buildApp, type App, type AppDeps } from '../src/app.js'
import { loadConfig, type Config } from '../src/config.js'
import { createApiKey } from '../src/kernel/auth/api-keys.js'
import { ALL_SCOPES } from '../src/kernel/auth/scopes.js'
import type { Clock } from '../src/kernel/clock.js'
import type { Mode } from '../src/kernel/tenant.js'
import { createDatabase } from '../src/kernel/db/database.js'
import { kernelMigrations } from '../src/kernel/db/kernel.migrations.js'
import { migrateToLatest } from '../src/kernel/db/migrations.js'
import { MODULES } from '../src/modules/index.js'
import { clonePgDatabase, copySqliteTemplate } from './db-template.js'

export const ENGINE = (process.env.TEST_DB ?? 'sqlite') as 'sqlite' | 'postgres'
export const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'
/** One secret per test process: cursors from one test app stay valid on another app over the same database. */
export const TEST_SERVER_SECRET = randomBytes(32).toString('base64url')
export const REDIS_URL = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379'
/**
 * A REDIS_KEY_PREFIX of its own for each test database (and so each test app): test files running at once on
 * one Redis never share a rate-limit counter or a live-feed channel. Apps over one database share it, as the
 * nodes of one deployment do.
 */
export const testRedisPrefix = () => `test-${randomBytes(6).toString('hex')}:`

/** A database for one test app: a fresh PostgreSQL schema, or a SQLite file in a temp dir. */
export interface TestDatabase {
  env: Record<string, string>
  drop(): Promise<void>
}

export async function createTestDatabase(engine = ENGINE): Promise<TestDatabase> {
  if (engine === 'postgres') {
    const schema = `t_${randomBytes(6).toString('hex')}`
    const client = new pg.Client({ connectionString: PG_URL })
    await client.connect()
    await client.query(`create schema "${schema}"`)
    await client.end()
    return {
      env: { DATABASE_URL: PG_URL, DATABASE_SCHEMA: schema, REDIS_URL, REDIS_KEY_PREFIX: testRedisPrefix() },
      async drop() {
        const c = new pg.Client({ connectionString: PG_URL })
        await c.connect()
        await c.query(`drop schema if exists "${schema}" cascade`)
        await c.end()
      },
    }
  }
  const dir = mkdtempSync(join(tmpdir(), 'svc-test-'))
  return {
    // No REDIS_URL on SQLite (a test adds it); the prefix is ready for when it does.
    env: { DATABASE_URL: `sqlite:${join(dir, 'svc.sqlite')}`, REDIS_KEY_PREFIX: testRedisPrefix() },
    async drop() {
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface Keyring {
  workspaceId: string
  live: string
  test: string
}

export interface TestApp {
  app: App
  config: Config
  /** Workspace A: full-scope live and test keys. */
  a: Keyring
  /** Workspace B: for cross-tenant checks. */
  b: Keyring
  key(scopes: string[], opts?: { mode?: Mode; workspaceId?: string }): Promise<string>
  request(opts: InjectOptions & { key?: string | null }): Promise<LightMyRequestResponse>
  /** The Fastify instance, for requests that set their own Authorization header. */
  http(): App['http']
  /** Runs every due job now, in this process. */
  drainJobs(): Promise<void>
  close(): Promise<void>
}

/**
 * A test app's database, a copy of a template that already has every migration (test/db-template.ts),
 * unless the app runs another set of modules (then an empty one it migrates itself).
 */
async function appDatabase(modules: AppDeps['modules']): Promise<TestDatabase> {
  if (modules) return createTestDatabase()
  const migrate = async (url: string) => {
    const database = createDatabase(url)
    try {
      await migrateToLatest(database.db, database.engine, [...kernelMigrations, ...MODULES.flatMap((m) => m.migrations)], null)
    } finally {
      await database.close()
    }
  }
  if (ENGINE === 'postgres') {
    const clone = await clonePgDatabase(PG_URL, migrate)
    return { env: { DATABASE_URL: clone.url, REDIS_URL, REDIS_KEY_PREFIX: testRedisPrefix() }, drop: clone.drop }
  }
  const db = await createTestDatabase()
  await copySqliteTemplate(db.env.DATABASE_URL.slice('sqlite:'.length), migrate)
  return db
}

export async function createTestApp(opts: { env?: Record<string, string>; clock?: Clock; modules?: AppDeps['modules']; logger?: AppDeps['logger'] } = {}): Promise<TestApp> {
  const database = await appDatabase(opts.modules)
  // Files (call recordings) in a folder of their own, removed with the app.
  const blobDir = mkdtempSync(join(tmpdir(), 'svc-blobs-'))
  const config = loadConfig({
    BLOB_DIR: blobDir,
    // Simulated calls answer at once (the voice tests that time the steps set 1).
    VOICE_SIM_SETUP_SCALE: '0',
    LOG_LEVEL: process.env.LOG_LEVEL ?? 'silent',
    RATE_LIMIT_PER_MINUTE: '100000',
    JOB_POLL_INTERVAL_MS: '50',
    WEBHOOK_ALLOW_PRIVATE_NETWORKS: 'true',
    SERVER_SECRET: TEST_SERVER_SECRET,
    ...database.env,
    ...opts.env,
  })
  const app = await buildApp({ config, clock: opts.clock, modules: opts.modules, logger: opts.logger })
  const { kernel, services } = app
  const keyring = async (name: string): Promise<Keyring> => {
    const ws = await services.workspaces.create({ name, ownerEmail: `owner@${name.toLowerCase()}.example` })
    const live = await createApiKey(kernel.db, kernel.clock, { workspaceId: ws.id, mode: 'live', scopes: [...ALL_SCOPES] })
    const test = await createApiKey(kernel.db, kernel.clock, { workspaceId: ws.id, mode: 'test', scopes: [...ALL_SCOPES] })
    return { workspaceId: ws.id, live: live.key, test: test.key }
  }
  const a = await keyring('Acme')
  const b = await keyring('Globex')
  return {
    app,
    config,
    a,
    b,
    async key(scopes, o = {}) {
      const k = await createApiKey(kernel.db, kernel.clock, { workspaceId: o.workspaceId ?? a.workspaceId, mode: o.mode ?? 'live', scopes })
      return k.key
    },
    http: () => app.http,
    async drainJobs() {
      await kernel.jobs.drain()
    },
    request({ key, ...inject }) {
      const headers: Record<string, string> = { ...(inject.headers as Record<string, string>) }
      const k = key === undefined ? a.live : key
      if (k) headers.authorization = `Bearer ${k}`
      return app.http.inject({ ...inject, headers })
    },
    async close() {
      await app.close()
      await database.drop()
      rmSync(blobDir, { recursive: true, force: true })
    },
  }
}

export const json = <T = any>(res: LightMyRequestResponse): T => JSON.parse(res.body) as T

// ---- request steps shared by the module route tests ----

/** The JSON body of a response that must have `status`. */
export async function ok(r: LightMyRequestResponse | Promise<LightMyRequestResponse>, status = 200): Promise<any> {
  const res = await r
  assert.equal(res.statusCode, status, res.body)
  return json(res)
}

export const post = (h: TestApp, url: string, payload: unknown = {}, opts: { key?: string; headers?: Record<string, string> } = {}) =>
  h.request({ method: 'POST', url: `/v2${url}`, payload: payload as object, ...(opts.key ? { key: opts.key } : {}), ...(opts.headers ? { headers: opts.headers } : {}) })
export const patch = (h: TestApp, url: string, payload: unknown, key?: string) => h.request({ method: 'PATCH', url: `/v2${url}`, payload: payload as object, ...(key ? { key } : {}) })
export const get = (h: TestApp, url: string, key?: string) => h.request({ method: 'GET', url: `/v2${url}`, ...(key ? { key } : {}) })

/** A problem+json answer with `status` (and `code`), carrying its request_id. */
export function assertProblem(r: LightMyRequestResponse, status: number, code?: string) {
  assert.equal(r.statusCode, status, r.body)
  assert.match(String(r.headers['content-type']), /application\/problem\+json/)
  assert.ok(json(r).request_id, 'problem carries request_id')
  assert.equal(json(r).status, status, 'RFC 9457: the problem status is the HTTP status')
  if (code) assert.equal(json(r).code, code, r.body)
}

/** Payloads of the events of one type from the outbox table, in the order they were emitted: ids are monotonic within the process (kernel/ids.ts). */
export async function events(h: TestApp, type: string): Promise<any[]> {
  const rows = await h.app.kernel.db.selectFrom('events').selectAll().where('type', '=', type).orderBy('id').execute()
  return rows.map((r) => JSON.parse(r.data).object)
}
