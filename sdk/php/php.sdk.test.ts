// The PHP client's suite (sdk/php/tests/run.php: plain PHP scripts) against the live server: every operation
// has a method, CRUD in every module, pagination, retries through the proxy, errors, webhooks, SSE, version.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { startLiveServer, type LiveServer } from '../test-support/live-server.js'

const ROOT = join(import.meta.dirname, '..', '..')

function phpSkipReason(): string | false {
  if (process.env.TEST_DB === 'postgres') return 'the SDK suites run once, on SQLite'
  const version = spawnSync('php', ['-r', 'echo PHP_VERSION_ID;'], { encoding: 'utf8' })
  if (version.error || version.status !== 0) return 'php is not installed (the PHP client needs PHP >= 8.1 with ext-curl)'
  if (Number(version.stdout.trim()) < 80100) return `php ${version.stdout.trim()} is older than 8.1`
  const modules = spawnSync('php', ['-m'], { encoding: 'utf8' })
  if (!/^curl$/m.test(modules.stdout ?? '')) return 'php has no curl extension (php -m lacks curl)'
  return false
}

const skip = phpSkipReason()

describe('PHP client (sdk/php) against the live server', { skip }, () => {
  let live: LiveServer
  before(async () => {
    live = await startLiveServer()
  })
  after(async () => {
    await live?.close()
  })

  it('php sdk/php/tests/run.php passes', async () => {
    const child = spawn('php', [join('sdk', 'php', 'tests', 'run.php')], { cwd: ROOT, env: { ...process.env, ...live.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), 150_000)
    const code = await new Promise<number | null>((resolve) => child.on('close', (c) => resolve(c)))
    clearTimeout(timer)
    assert.equal(code, 0, `php sdk/php/tests/run.php exited ${code}:\n${output}`)
    assert.match(output, / 0 failed/)
    // Only the recording download may be skipped (where the server cannot synthesise audio); every other live
    // test must have run.
    const skipped = output.split('\n').filter((l) => l.startsWith('skip ') && !l.startsWith('skip files:'))
    assert.deepEqual(skipped, [], `tests were skipped:\n${output}`)
  })
})
