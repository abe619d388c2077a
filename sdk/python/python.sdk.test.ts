// The python client's own suite (sdk/python/tests, unittest) against the live server: every operation has a
// method, CRUD in every module, pagination, retries through the proxy, errors, webhooks, SSE, version pin.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startLiveServer, type LiveServer } from '../test-support/live-server.js'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const python = spawnSync('python3', ['-c', 'import sys; assert sys.version_info >= (3, 9), sys.version'], { encoding: 'utf8' })
const skip =
  process.env.TEST_DB === 'postgres'
    ? 'the SDK suites run once, on SQLite'
    : python.error || python.status !== 0
      ? `python3 (>= 3.9) is not available: ${python.error?.message ?? python.stderr.trim()}`
      : false

/** Run a child without blocking the event loop (the live server answers it from this process). */
function run(cmd: string, args: string[], env: NodeJS.ProcessEnv, timeoutMs: number): Promise<{ code: number | null; signal: string | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      resolve({ code, signal, output })
    })
  })
}

describe('python client (sdk/python) against the live server', { skip }, () => {
  let live: LiveServer
  before(async () => {
    live = await startLiveServer()
  })
  after(async () => {
    await live?.close()
  })

  it('passes its unittest suite', { timeout: 160_000 }, async () => {
    const env = { ...process.env, ...live.env, PYTHONPATH: join(ROOT, 'sdk', 'python'), PYTHONDONTWRITEBYTECODE: '1', PYTHONUNBUFFERED: '1' }
    const r = await run('python3', ['-m', 'unittest', 'discover', '-s', 'sdk/python/tests', '-t', 'sdk/python', '-v'], env, 150_000)
    assert.equal(r.code, 0, `python3 -m unittest exited ${r.code ?? r.signal}${r.signal === 'SIGKILL' ? ' (killed after 150 s)' : ''}:\n${r.output}`)
    assert.match(r.output, /\nOK/, r.output)
    assert.doesNotMatch(r.output, /needs the live server/, `live tests were skipped:\n${r.output}`)
  })
})
