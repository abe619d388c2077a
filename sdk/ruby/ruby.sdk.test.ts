// The Ruby client's own suite (minitest, sdk/ruby/test/*_test.rb) against the live server: the real app,
// the steerable proxy and a captured webhook (sdk/test-support/live-server.ts), passed as SVC_* variables.
// Skipped where Ruby is missing and on PostgreSQL runs (the SDK suites run once, on SQLite).
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { dirname, join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startLiveServer, type LiveServer } from '../test-support/live-server.js'

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..')
const CHILD_TIMEOUT_MS = 150_000

/** Why the suite cannot run here, or null. */
function skipReason(): string | null {
  if (process.env.TEST_DB === 'postgres') return 'the SDK suites run once, on SQLite'
  const probe = spawnSync('ruby', ['-e', 'require "minitest"; require "json"; require "openssl"; require "net/http"; exit(RUBY_VERSION >= "3.0" ? 0 : 3)'], { encoding: 'utf8' })
  if (probe.error) return 'ruby is not installed (the Ruby client needs Ruby 3.0+ with its bundled minitest)'
  if (probe.status === 3) return 'ruby is older than 3.0'
  if (probe.status !== 0) return `ruby cannot load minitest/json/openssl/net-http: ${probe.stderr.trim()}`
  return null
}

function run(env: Record<string, string>): Promise<{ code: number | null; signal: NodeJS.Signals | null; output: string; timedOut: boolean }> {
  return new Promise((resolve) => {
    // Every test file, in a stable order; minitest runs them at exit and exits non-zero on a failure.
    const script = 'Dir["sdk/ruby/test/**/*_test.rb"].sort.each { |f| require File.expand_path(f) }'
    const child = spawn('ruby', ['-Isdk/ruby/lib', '-Isdk/ruby/test', '-e', script, '--', '--verbose'], { cwd: ROOT, env: { ...process.env, ...env } })
    let output = ''
    let timedOut = false
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => {
      timedOut = true
      child.kill('SIGKILL')
    }, CHILD_TIMEOUT_MS)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, output, timedOut })
    })
  })
}

const reason = skipReason()

describe('Ruby client (sdk/ruby) against the live server', { skip: reason ?? false }, () => {
  let live: LiveServer
  before(async () => {
    live = await startLiveServer()
  })
  after(async () => {
    await live?.close()
  })

  it('passes its minitest suite', async () => {
    const r = await run(live.env)
    if (r.code !== 0) process.stdout.write(`\n----- ruby output -----\n${r.output}\n-----------------------\n`)
    assert.equal(r.timedOut, false, `the Ruby suite did not finish within ${CHILD_TIMEOUT_MS / 1000} s`)
    assert.equal(r.code, 0, `the Ruby suite failed (exit ${r.code}${r.signal ? `, ${r.signal}` : ''})`)
    assert.match(r.output, /\d+ runs, \d+ assertions, 0 failures, 0 errors/)
    // Every live test ran: none skipped for want of the SVC_* variables.
    assert.doesNotMatch(r.output, /SVC_\* variables are not set/)
  })
})
