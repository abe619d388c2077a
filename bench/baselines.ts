// The floors our paths are measured against, each a bare Fastify process (bench/bare-server.ts).
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { freePort } from '../test/spawn.js'
import { load, peakRssMb, progress, startProcess, stop, type LoadResult } from './lib.js'

export type BaselineKey = 'hello' | 'list-bytes' | 'members-bytes' | 'sqlite-read'

export interface Baseline extends LoadResult {
  key: BaselineKey
  label: string
  rssMb: number
}

export const BASELINE_NAMES: Record<BaselineKey, string> = {
  hello: 'bare hello',
  'list-bytes': 'same bytes (list)',
  'members-bytes': 'same bytes (members)',
  'sqlite-read': 'indexed SQLite read',
}

async function bare(key: BaselineKey, label: string, path: string, env: Record<string, string>): Promise<Baseline> {
  const port = await freePort()
  const url = `http://127.0.0.1:${port}${path}`
  const child = await startProcess(['bench/bare-server.ts'], { ...env, PORT: String(port) }, url)
  try {
    await load({ url, duration: 2 }) // warm-up
    const r = await load({ url })
    progress(`baseline ${label}: ${r.rps} req/s, p99 ${r.p99} ms`)
    return { key, label, ...r, rssMb: peakRssMb(child.pid!) }
  } finally {
    await stop(child)
  }
}

export const bareHello = () => bare('hello', 'bare Fastify GET /hello', '/hello', { BARE_MODE: 'hello' })

export const bareSqliteRead = () =>
  bare('sqlite-read', 'bare Fastify + better-sqlite3: one row by primary key (23 columns, 5,000 rows), as JSON', `/conversations/conv_${'2500'.padStart(26, '0')}`, {
    BARE_MODE: 'sqlite',
  })

/** A static payload of exactly the bytes one of our responses had: the floor for sending that response. */
export async function bareStatic(key: 'list-bytes' | 'members-bytes', what: string, body: Buffer): Promise<Baseline> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-static-'))
  try {
    const file = join(dir, 'body.json')
    writeFileSync(file, body)
    return await bare(key, `bare Fastify, static ${body.length} bytes (${what})`, '/static', { BARE_MODE: 'static', BARE_FILE: file })
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
