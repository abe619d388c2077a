// SQL statements and CPU time per request on the write path (issue 36), on a busy machine where wall-clock
// req/s is noise: `node --import tsx bench/statements.ts [sqlite|postgres] [requests]`. Statements are
// counted by a Kysely log hook (BEGIN and COMMIT included); CPU is process.cpuUsage() (user + system, all
// threads) over N requests through inject (no sockets: the request's own work, not Node's HTTP server).
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import pg from 'pg'
import { buildApp, type App } from '../src/app.js'
import { loadConfig } from '../src/config.js'
import { createApiKey } from '../src/kernel/auth/api-keys.js'
import { ALL_SCOPES } from '../src/kernel/auth/scopes.js'
import { createDatabase, ensureSchema } from '../src/kernel/db/database.js'
import { MODULES } from '../src/modules/index.js'

const PG_URL = process.env.TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test'

export interface WriteCase {
  name: string
  /** The request, the n-th of its kind (a fresh Idempotency-Key each). */
  request: (n: number) => { method: 'POST'; url: string; payload: object; headers: Record<string, string> }
}

export interface StatementCount {
  name: string
  statements: string[]
  /** COMMITs plus writes outside a transaction (each its own commit): on SQLite each is a WAL append. */
  commits: number
  cpuMicros: number
}

export function commitsOf(statements: string[]): number {
  let open = false
  let n = 0
  for (const q of statements) {
    const s = q.trimStart().slice(0, 6).toLowerCase()
    if (s.startsWith('begin')) open = true
    else if (s === 'commit' || s.startsWith('rollba')) {
      open = false
      if (s === 'commit') n++
    } else if (!open && (s === 'insert' || s === 'update' || s === 'delete')) n++
  }
  return n
}

/**
 * The claim of an Idempotency-Key taken by a commit of its own before the handler, as every operation did
 * before issue 36 (kernel/http/idempotency.ts): the "before" of the comparison, in the same process.
 */
export function claimKeysEagerly(eager: boolean): void {
  for (const r of MODULES.flatMap((m) => m.routes) as { idempotency?: 'in-transaction'; eagerWas?: boolean }[]) {
    if (eager && r.idempotency) {
      r.eagerWas = true
      r.idempotency = undefined
    }
    if (!eager && r.eagerWas) r.idempotency = 'in-transaction'
  }
}

/** An app on a fresh database of `engine`, counting statements while `counting` is on. */
export async function statementApp(engine: 'sqlite' | 'postgres', observe?: (sql: string, ms: number) => void) {
  let log: string[] | null = null
  const dir = mkdtempSync(join(tmpdir(), 'svc-statements-'))
  const schema = engine === 'postgres' ? `stmts_${process.pid}_${Date.now()}` : null
  const url = engine === 'postgres' ? PG_URL : `sqlite:${join(dir, 'svc.sqlite')}`
  await ensureSchema(url, schema)
  const config = loadConfig({ DATABASE_URL: url, ...(schema && { DATABASE_SCHEMA: schema }), BLOB_DIR: dir, LOG_LEVEL: 'silent', RATE_LIMIT_PER_MINUTE: '1000000', SVC_ROLE: 'api' })
  const database = createDatabase(url, {
    schema,
    onStatement: (s, ms) => {
      log?.push(s)
      observe?.(s, ms)
    },
  })
  const app: App = await buildApp({ config, database })
  const ws = await app.services.workspaces.create({ name: 'Bench', ownerEmail: 'owner@bench.example' })
  const { key } = await createApiKey(app.kernel.db, app.kernel.clock, { workspaceId: ws.id, mode: 'live', scopes: [...ALL_SCOPES] })
  const inject = (r: ReturnType<WriteCase['request']>) => app.http.inject({ ...r, headers: { ...r.headers, authorization: `Bearer ${key}` } })
  return {
    app,
    inject,
    /** The statements one request runs, and its mean CPU over `n` more after `warm` unmeasured ones. */
    async measure(c: WriteCase, n: number, warm = Math.min(200, n)): Promise<StatementCount> {
      for (let i = 0; i < warm; i++) await expect201(inject(c.request(i)))
      log = []
      await expect201(inject(c.request(warm)))
      const statements = log
      log = null
      const before = process.cpuUsage()
      for (let i = 0; i < n; i++) await expect201(inject(c.request(warm + 1 + i)))
      const used = process.cpuUsage(before)
      return { name: c.name, statements, commits: commitsOf(statements), cpuMicros: (used.user + used.system) / n }
    },
    async close() {
      await app.close()
      await database.close()
      if (schema) {
        const c = new pg.Client({ connectionString: PG_URL })
        await c.connect()
        await c.query(`drop schema if exists "${schema}" cascade`)
        await c.end()
      }
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

async function expect201(r: Promise<{ statusCode: number; body: string }>): Promise<void> {
  const res = await r
  if (res.statusCode !== 201) throw new Error(`expected 201, got ${res.statusCode}: ${res.body}`)
}

/** The write paths measured: a conversation to write into is created first. */
export async function writeCases(inject: Awaited<ReturnType<typeof statementApp>>['inject']): Promise<WriteCase[]> {
  const made = await inject({ method: 'POST', url: '/v2/inbox/conversations', payload: { contact: { name: 'Ada' } }, headers: {} })
  const id = (JSON.parse(made.body) as { id: string }).id
  const key = (p: string, n: number) => ({ 'idempotency-key': `${p}-${process.pid}-${n}` })
  return [
    {
      name: 'sendMessage (outbound) + Idempotency-Key',
      request: (n) => ({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content: `Reply ${n}` }, headers: key('out', n) }),
    },
    {
      name: 'sendMessage (inbound) + Idempotency-Key',
      request: (n) => ({ method: 'POST', url: `/v2/inbox/conversations/${id}/messages`, payload: { content: `Question ${n}`, direction: 'inbound' }, headers: key('in', n) }),
    },
    {
      name: 'createConversation + Idempotency-Key',
      request: (n) => ({ method: 'POST', url: '/v2/inbox/conversations', payload: { contact: { name: `Contact ${n}` } }, headers: key('conv', n) }),
    },
    {
      name: 'createConversation with a first message + Idempotency-Key',
      request: (n) => ({ method: 'POST', url: '/v2/inbox/conversations', payload: { contact: { name: `Contact ${n}` }, message: { content: `Hello ${n}` } }, headers: key('convm', n) }),
    },
  ]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  // `node --import tsx bench/statements.ts <engine> <n> [eager|both]`: both builds two apps, the claim taken
  // eagerly (before) and in the transaction (after), and measures them in alternating turns.
  const engine = (process.argv[2] ?? 'sqlite') as 'sqlite' | 'postgres'
  const n = Number(process.argv[3] ?? 2000)
  const variants = process.argv[4] === 'both' ? [true, false] : [process.argv[4] === 'eager']
  const rows = new Map<string, { statements: number; commits: number; cpu: number[] }>()
  for (let turn = 0; turn < (variants.length > 1 ? 3 : 1); turn++) {
    for (const eager of variants) {
      claimKeysEagerly(eager)
      const s = await statementApp(engine)
      try {
        for (const c of await writeCases(s.inject)) {
          const m = await s.measure(c, n)
          const name = `${engine} | ${m.name} | ${eager ? 'claim first (before)' : 'claim in the transaction'}`
          const row = rows.get(name) ?? { statements: m.statements.length, commits: m.commits, cpu: [] }
          row.cpu.push(m.cpuMicros)
          rows.set(name, row)
          if (turn === 0 && process.env.BENCH_VERBOSE) for (const q of m.statements) console.log(`  ${q.replace(/\s+/g, ' ').slice(0, 160)}`)
        }
      } finally {
        await s.close()
        claimKeysEagerly(false)
      }
    }
  }
  for (const [name, r] of rows) console.log(`${name} | ${r.statements} statements, ${r.commits} commits | CPU µs/request ${r.cpu.map((x) => x.toFixed(0)).join(' / ')}`)
}
