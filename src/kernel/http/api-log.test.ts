import assert from 'node:assert/strict'
import { describe, it } from 'node:test'
import { sql } from 'kysely'
import pino from 'pino'
import { buildApp } from '../../app.js'
import { loadConfig } from '../../config.js'
import { createTestDatabase, ENGINE, TEST_SERVER_SECRET } from '../../../test/helpers.js'
import { createApiKey } from '../auth/api-keys.js'
import { ManualClock } from '../clock.js'
import { createDatabase } from '../db/database.js'
import { kernelMigrations } from '../db/kernel.migrations.js'
import { migrateToLatest } from '../db/migrations.js'
import { apiLogIdBound, ApiLogRecorder, bucketUpperMs, latencyBucket, type ApiLogEntry } from './api-log.js'

const entry = (i: number): ApiLogEntry => ({
  workspaceId: 'ws_1',
  mode: 'live',
  at: Date.parse('2026-12-01T00:00:00Z') + i,
  requestId: `r${i}`,
  method: 'GET',
  path: '/v2/leads',
  operationId: 'listLeads',
  status: 200,
  durationMs: 1,
  keyId: 'key_1',
  oauthAppId: null,
  ip: null,
  userAgent: null,
  errorCode: null,
})

describe(`the API log recorder (${ENGINE})`, () => {
  for (const thread of ENGINE === 'sqlite' ? [false, true] : [false]) {
    it(`keeps at most maxBuffered entries while the database refuses them, dropping the oldest, and writes the rest once it recovers${thread ? ' (writer thread)' : ''}`, async () => {
      const t = await createTestDatabase()
      const database = createDatabase(t.env.DATABASE_URL, { schema: t.env.DATABASE_SCHEMA ?? null })
      const recorder = new ApiLogRecorder(database, new ManualClock(), pino({ level: 'silent' }), {
        enabled: true,
        maxBuffered: 20,
        batchSize: 1000,
        writerThread: thread,
      })
      try {
        // No tables yet: every write fails, as with a database that is down.
        for (let i = 0; i < 50; i++) recorder.add(entry(i))
        assert.equal(recorder.dropped, 30)
        await recorder.flush()
        assert.equal(recorder.pending, 20)
        assert.equal(recorder.written, 0)
        for (let i = 50; i < 55; i++) recorder.add(entry(i))
        assert.equal(recorder.dropped, 35)
        await migrateToLatest(database.db, database.engine, kernelMigrations, database.schema)
        await recorder.flush()
        assert.equal(recorder.pending, 0)
        assert.equal(recorder.written, 20)
        const rows = await database.db.selectFrom('api_logs').select('request_id').orderBy('id').execute()
        assert.deepEqual(
          rows.map((r) => r.request_id),
          Array.from({ length: 20 }, (_, i) => `r${i + 35}`),
          'the newest 20, in order',
        )
        // Many at once: several statements and, on the writer thread, several transactions.
        const big = new ApiLogRecorder(database, new ManualClock(), pino({ level: 'silent' }), { enabled: true, batchSize: 5000, writerThread: thread })
        for (let i = 100; i < 1100; i++) big.add(entry(i))
        await big.close()
        const n = await database.db
          .selectFrom('api_logs')
          .select((eb) => eb.fn.countAll().as('n'))
          .executeTakeFirstOrThrow()
        assert.equal(Number(n.n), 1020)
        const usage = await database.db.selectFrom('api_usage_days').select('count').executeTakeFirstOrThrow()
        assert.equal(Number(usage.count), 1020)
      } finally {
        await recorder.close()
        await database.close()
        await t.drop()
      }
    })
  }

  if (ENGINE === 'sqlite') {
    it('a writer-thread flush that fails half-way is retried without writing a row or a count twice', async () => {
      const t = await createTestDatabase()
      const database = createDatabase(t.env.DATABASE_URL)
      const recorder = new ApiLogRecorder(database, new ManualClock(), pino({ level: 'silent' }), { enabled: true, batchSize: 5000 })
      try {
        await migrateToLatest(database.db, database.engine, kernelMigrations, null)
        // Row r300 is refused: the thread's first transaction (rollups and rows 0–255) commits, the second fails.
        await sql`create trigger refuse before insert on api_logs when new.request_id = 'r300' begin select raise(abort, 'refused'); end`.execute(database.db)
        for (let i = 0; i < 600; i++) recorder.add(entry(i))
        await recorder.flush()
        assert.equal(recorder.written, 256)
        assert.equal(recorder.pending, 344)
        await sql`drop trigger refuse`.execute(database.db)
        await recorder.flush()
        const rows = await database.db.selectFrom('api_logs').select('request_id').execute()
        assert.equal(rows.length, 600)
        assert.equal(new Set(rows.map((r) => r.request_id)).size, 600)
        const counted = await database.db
          .selectFrom('api_usage_days')
          .select((eb) => eb.fn.sum<number>('count').as('n'))
          .executeTakeFirstOrThrow()
        assert.equal(Number(counted.n), 600)
      } finally {
        await recorder.close()
        await database.close()
        await t.drop()
      }
    })
  }

  it('app.close() writes what is still buffered (the loss window is only a crash)', async () => {
    const t = await createTestDatabase()
    const config = loadConfig({ LOG_LEVEL: 'silent', SERVER_SECRET: TEST_SERVER_SECRET, RATE_LIMIT_PER_MINUTE: '100000', ...t.env })
    const app = await buildApp({ config })
    let closed = false
    try {
      const ws = await app.services.workspaces.create({ name: 'Flush', ownerEmail: 'owner@flush.example' })
      const { key } = await createApiKey(app.kernel.db, app.kernel.clock, { workspaceId: ws.id, mode: 'live', scopes: ['admin'] })
      for (let i = 0; i < 5; i++) {
        const r = await app.http.inject({ method: 'GET', url: '/v2/leads', headers: { authorization: `Bearer ${key}`, 'x-request-id': `close-${i}` } })
        assert.equal(r.statusCode, 200)
      }
      assert.equal(app.kernel.apiLogs.pending, 5, 'still in memory (the flush interval has not passed)')
      await app.close()
      closed = true
      const database = createDatabase(t.env.DATABASE_URL, { schema: t.env.DATABASE_SCHEMA ?? null })
      const rows = await database.db.selectFrom('api_logs').select('request_id').where('request_id', 'like', 'close-%').execute()
      await database.close()
      assert.equal(rows.length, 5)
    } finally {
      if (!closed) await app.close()
      await t.drop()
    }
  })

  it('ids carry the millisecond, so a time bound is an id bound', () => {
    const at = Date.parse('2026-12-01T10:00:00.123Z')
    assert.match(apiLogIdBound(at), /^alog_[0-9A-Z]{10}$/)
    assert.equal(apiLogIdBound('2026-12-01T10:00:00.123Z'), apiLogIdBound(at))
    assert.ok(apiLogIdBound(at - 1) < apiLogIdBound(at) && apiLogIdBound(at) < apiLogIdBound(at + 1))
  })

  it('latency buckets are 5 % wide and a value sits at or below its bucket’s upper edge', () => {
    for (const ms of [0.05, 0.2, 1, 1.05, 3.3, 52, 100, 999.9, 12_345]) {
      const b = latencyBucket(ms)
      assert.ok(bucketUpperMs(b) >= ms - 1e-9 && bucketUpperMs(b) <= Math.max(ms, bucketUpperMs(-48)) * 1.05 + 1e-9, `${ms} → ${b}`)
    }
    assert.equal(latencyBucket(1), 0)
    assert.equal(latencyBucket(0), latencyBucket(-1))
  })
})
