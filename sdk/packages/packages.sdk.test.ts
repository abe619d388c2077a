// Each client built into its ecosystem's package by that ecosystem's own tools, from a copy of its folder
// (nothing of the repository root: the Node client installs its own devDependencies), then installed into an
// empty project from that artefact alone and run against the live server: npm pack; a wheel (pip, with
// Debian's setuptools and wheel); gem build and gem install --local; composer validate --strict and a
// Composer project that takes the README's path-repository snippet. SQLite only, like the other SDK suites.
import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { fileURLToPath } from 'node:url'
import { startLiveServer, type LiveServer } from '../test-support/live-server.js'

/** sdk/ */
const SDK = fileURLToPath(new URL('..', import.meta.url))
const has = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  return !r.error && r.status === 0
}
/** A Python with pip, setuptools and wheel (Debian's python3-pip, python3-setuptools, python3-wheel). */
const PYTHON = ['python3', '/usr/bin/python3'].find((p) => has(p, ['-c', 'import setuptools, wheel, pip, venv']))
const ON_POSTGRES = process.env.TEST_DB === 'postgres' ? 'the SDK suites run once, on SQLite' : false
const needs = (ok: boolean, what: string) => ON_POSTGRES || (ok ? false : `${what} is not installed`)

/** A child without blocking the event loop (the live server answers it from another process, but the test waits). */
function run(cmd: string, args: string[], cwd: string, env: NodeJS.ProcessEnv = {}, timeoutMs = 180_000): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('error', reject)
    child.on('close', (code, signal) => {
      clearTimeout(timer)
      if (code === 0) resolve(output)
      else reject(new Error(`${cmd} ${args.join(' ')} (in ${cwd}) exited ${code ?? signal}:\n${output}`))
    })
  })
}

/** The package's folder as a source tree of its own: its tests, the repository's test files and build output left behind. */
function copyOf(lang: string, into: string): string {
  const to = join(into, `${lang}-src`)
  const skip = new Set(['node_modules', 'dist', 'build', 'tests', 'test', '__pycache__', 'vendor'])
  cpSync(join(SDK, lang), to, { recursive: true, filter: (src) => !skip.has(src.split('/').pop()!) && !src.endsWith('.test.ts') })
  return to
}

describe('SDK packages built by their own tools and installed from the artefact', () => {
  let live: LiveServer
  let work: string
  let env: Record<string, string>

  before(async () => {
    if (ON_POSTGRES) return
    live = await startLiveServer()
    env = live.env
    work = mkdtempSync(join(tmpdir(), 'svc-sdk-packages-'))
  })
  after(async () => {
    await live?.close()
    if (work) rmSync(work, { recursive: true, force: true })
  })

  it('node: npm install (its own devDependencies) and npm pack; an empty project installs the tarball, ESM and CommonJS', { skip: ON_POSTGRES, timeout: 300_000 }, async () => {
    const src = copyOf('node', work)
    await run('npm', ['install', '--prefer-offline', '--no-audit', '--no-fund'], src)
    const packed = await run('npm', ['pack', '--pack-destination', work], src)
    const tarball = readdirSync(work).find((f) => /^svc-client-.*\.tgz$/.test(f))
    assert.ok(tarball, packed)
    const app = join(work, 'node-app')
    mkdirSync(app)
    writeFileSync(join(app, 'package.json'), '{ "name": "app", "version": "1.0.0", "private": true }\n')
    await run('npm', ['install', '--offline', '--no-audit', '--no-fund', join(work, tarball)], app)
    const pkg = JSON.parse(readFileSync(join(app, 'node_modules/@svc/client/package.json'), 'utf8'))
    assert.equal(pkg.version, JSON.parse(readFileSync(join(SDK, 'node/package.json'), 'utf8')).version)
    writeFileSync(
      join(app, 'esm.mjs'),
      `import { Svc, constructEvent, signWebhook } from '@svc/client'
const svc = new Svc({ apiKey: process.env.SVC_API_KEY, baseUrl: process.env.SVC_BASE_URL })
const bot = await svc.bots.create({ name: 'from the npm package' })
// A client whose own key is refused, given the right one for one call.
const other = new Svc({ apiKey: 'svc_live_not_a_key', baseUrl: process.env.SVC_BASE_URL, maxRetries: 0 })
const refused = await other.bots.get(bot.id).then(() => 'answered', (e) => e.status)
const perCall = (await other.bots.get(bot.id, undefined, { apiKey: process.env.SVC_API_KEY })).name
// Webhook verification from the signature header's value alone.
const body = JSON.stringify({ id: 'evt_1', type: 'webhook.test' })
const headers = signWebhook(body, 'whsec_dGVzdHNlY3JldA==')
const sig = Object.entries(headers).find(([k]) => k.toLowerCase() === 'svc-status-signature')[1]
const event = constructEvent(body, sig, 'whsec_dGVzdHNlY3JldA==')
let tampered = 'verified'
try { constructEvent(body + ' ', sig, 'whsec_dGVzdHNlY3JldA==') } catch (e) { tampered = e.constructor.name }
console.log(JSON.stringify({ id: bot.id, name: (await svc.bots.get(bot.id)).name, refused, perCall, event: event.type, tampered }))
`,
    )
    writeFileSync(join(app, 'cjs.cjs'), `const { Svc } = require('@svc/client')\nconsole.log(typeof Svc)\n`)
    const esm = JSON.parse((await run(process.execPath, ['esm.mjs'], app, env)).trim())
    assert.match(esm.id, /^bot_/)
    assert.deepEqual(
      { name: esm.name, refused: esm.refused, perCall: esm.perCall, event: esm.event, tampered: esm.tampered },
      { name: 'from the npm package', refused: 401, perCall: 'from the npm package', event: 'webhook.test', tampered: 'SignatureVerificationError' },
    )
    assert.equal((await run(process.execPath, ['cjs.cjs'], app)).trim(), 'function')
  })

  it(
    'python: a wheel built by pip (no isolation, no index) installs into an empty virtual environment',
    { skip: needs(!!PYTHON, 'a python3 with pip, setuptools and wheel (python3-pip, python3-setuptools, python3-wheel, python3-venv)'), timeout: 300_000 },
    async () => {
      const src = copyOf('python', work)
      const dist = join(work, 'wheels')
      await run(PYTHON!, ['-m', 'pip', 'wheel', '--no-deps', '--no-build-isolation', '--no-index', '-w', dist, src], work)
      const wheel = readdirSync(dist).find((f) => /^svc_client-.*-py3-none-any\.whl$/.test(f))
      assert.ok(wheel, readdirSync(dist).join(', '))
      const venv = join(work, 'py-app')
      await run(PYTHON!, ['-m', 'venv', venv], work)
      await run(join(venv, 'bin/python'), ['-m', 'pip', 'install', '--no-index', join(dist, wheel)], work)
      const script = [
        'import os, json, svc',
        'c = svc.Client(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"])',
        'bot = c.bots.create({"name": "from the wheel", "metadata": {"team": "eu"}})',
        // A client whose own key is refused, given the right one for one call.
        'other = svc.Client(api_key="svc_live_not_a_key", base_url=os.environ["SVC_BASE_URL"], max_retries=0)',
        'try:\n    other.bots.get(bot.id)\n    refused = "answered"\nexcept svc.AuthenticationError:\n    refused = "401"',
        'got = other.bots.get(bot.id, api_key=os.environ["SVC_API_KEY"])',
        // Attribute access and dict access on the same object, nested objects too.
        'same = [got.name == got["name"], got.metadata.team == got["metadata"]["team"], isinstance(got, dict)]',
        'body = json.dumps({"id": "evt_1", "type": "webhook.test"})',
        'headers = svc.Webhook.sign(body, "whsec_dGVzdHNlY3JldA==")',
        'sig = [v for k, v in headers.items() if k.lower() == "svc-status-signature"][0]',
        'event = svc.Webhook.construct_event(body, sig, "whsec_dGVzdHNlY3JldA==")',
        'try:\n    svc.Webhook.construct_event(body + " ", sig, "whsec_dGVzdHNlY3JldA==")\n    tampered = "verified"\nexcept svc.SignatureVerificationError:\n    tampered = "refused"',
        'print(json.dumps({"id": bot.id, "name": got.name, "same": same, "refused": refused, "event": event.type, "tampered": tampered, "file": svc.__file__}))',
      ].join('\n')
      // Run from an empty folder: only the installed wheel can be imported.
      const out = JSON.parse((await run(join(venv, 'bin/python'), ['-c', script], venv, env)).trim())
      assert.match(out.id, /^bot_/)
      assert.deepEqual([out.name, out.same, out.refused, out.event, out.tampered], ['from the wheel', [true, true, true], '401', 'webhook.test', 'refused'])
      assert.ok(out.file.startsWith(venv), out.file)
    },
  )

  it('ruby: gem build, gem install --local into an empty GEM_HOME, required from there', { skip: needs(has('gem', ['--version']), 'gem (ruby)'), timeout: 300_000 }, async () => {
    const src = copyOf('ruby', work)
    await run('gem', ['build', 'svc-client.gemspec'], src)
    const gem = readdirSync(src).find((f) => /^svc-client-.*\.gem$/.test(f))
    assert.ok(gem)
    const home = join(work, 'gems')
    await run('gem', ['install', '--local', '--no-document', '--install-dir', home, join(src, gem)], work)
    const script = [
      'require "svc"',
      'c = Svc::Client.new(ENV.fetch("SVC_API_KEY"), base_url: ENV.fetch("SVC_BASE_URL"))',
      'bot = c.bots.create(name: "from the gem", metadata: { team: "eu" })',
      // A client whose own key is refused, given the right one for one call; attribute and hash access.
      'other = Svc::Client.new("svc_live_not_a_key", base_url: ENV.fetch("SVC_BASE_URL"), max_retries: 0)',
      'refused = begin; other.bots.get(bot.id); "answered"; rescue Svc::AuthenticationError; "401"; end',
      'got = other.bots.get(bot.id, api_key: ENV.fetch("SVC_API_KEY"))',
      'body = JSON.generate(id: "evt_1", type: "webhook.test")',
      'sig = Svc::Webhook.signature_headers(body, "whsec_dGVzdHNlY3JldA==")["svc-status-signature"]',
      'event = Svc::Webhook.construct_event(body, sig, "whsec_dGVzdHNlY3JldA==")',
      'tampered = begin; Svc::Webhook.construct_event(body + " ", sig, "whsec_dGVzdHNlY3JldA=="); "verified"; rescue Svc::SignatureVerificationError; "refused"; end',
      'puts JSON.generate(id: bot.id, name: got.name, team: got.metadata.team, hash: got["name"] == got.name && got.is_a?(Hash), refused: refused, event: event.type, tampered: tampered, file: $LOADED_FEATURES.grep(/svc\\/client\\.rb$/).first)',
    ].join('\n')
    const out = JSON.parse((await run('ruby', ['-e', script], work, { ...env, GEM_HOME: home, GEM_PATH: home, RUBYLIB: '' })).trim())
    assert.match(out.id, /^bot_/)
    assert.deepEqual([out.name, out.team, out.hash, out.refused, out.event, out.tampered], ['from the gem', 'eu', true, '401', 'webhook.test', 'refused'])
    assert.ok(out.file.startsWith(home), out.file)
  })

  it(
    'php: composer validate --strict; a project with the README’s path repository installs it (default minimum-stability)',
    { skip: needs(has('composer', ['--version']), 'composer'), timeout: 300_000 },
    async () => {
      const src = copyOf('php', work)
      const composerEnv = { COMPOSER_HOME: join(work, 'composer-home'), COMPOSER_NO_INTERACTION: '1', COMPOSER_DISABLE_NETWORK: '1' }
      await run('composer', ['validate', '--strict'], src, composerEnv)
      // The README's snippet, as written there (its path pointing at the copy), with Packagist off: nothing here reaches it.
      const readme = readFileSync(join(SDK, 'php/README.md'), 'utf8')
      const snippet = /With Composer[^\n]*\n\n```json\n([\s\S]*?)\n```/.exec(readme)
      assert.ok(snippet, 'the README has a Composer snippet')
      const project = JSON.parse(snippet[1].replace('path/to/sdk/php', src))
      project.repositories.push({ 'packagist.org': false })
      const app = join(work, 'php-app')
      mkdirSync(app)
      writeFileSync(join(app, 'composer.json'), JSON.stringify(project, null, 2))
      await run('composer', ['install', '--no-progress'], app, composerEnv)
      writeFileSync(
        join(app, 'main.php'),
        `<?php
require __DIR__ . '/vendor/autoload.php';
$c = new \\Svc\\SvcClient(getenv('SVC_API_KEY'), ['base_url' => getenv('SVC_BASE_URL')]);
$bot = $c->bots->create(['name' => 'from composer']);
$other = new \\Svc\\SvcClient('svc_live_not_a_key', ['base_url' => getenv('SVC_BASE_URL'), 'max_retries' => 0]);
$perCall = $other->bots->get($bot['id'], null, ['api_key' => getenv('SVC_API_KEY')])['name'];
$body = json_encode(['id' => 'evt_1', 'type' => 'webhook.test']);
$sig = \\Svc\\Webhook::signatureHeader($body, 'whsec_dGVzdHNlY3JldA==');
$event = \\Svc\\Webhook::constructEvent($body, $sig, 'whsec_dGVzdHNlY3JldA==');
try { \\Svc\\Webhook::constructEvent($body . ' ', $sig, 'whsec_dGVzdHNlY3JldA=='); $tampered = 'verified'; } catch (\\Svc\\Exception\\SignatureVerificationException $e) { $tampered = 'refused'; }
echo json_encode(['id' => $bot['id'], 'name' => $c->bots->get($bot['id'])['name'], 'perCall' => $perCall, 'event' => $event['type'], 'tampered' => $tampered]);
`,
      )
      const out = JSON.parse(await run('php', ['main.php'], app, env))
      assert.match(out.id, /^bot_/)
      assert.deepEqual([out.name, out.perCall, out.event, out.tampered], ['from composer', 'from composer', 'webhook.test', 'refused'])
    },
  )
})
