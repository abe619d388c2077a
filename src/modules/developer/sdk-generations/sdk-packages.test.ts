import assert from 'node:assert/strict'
import { spawn, spawnSync } from 'node:child_process'
import { readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { after, before, describe, it } from 'node:test'
import { pathToFileURL } from 'node:url'
import { tsImport } from 'tsx/esm/api'
import { startLiveServer, type LiveServer } from '../../../../scripts/live-server.js'
import { buildOpenApiDocument } from '../../../../scripts/write-openapi.js'
import { ENGINE } from '../../../../test/helpers.js'
import type { CreateSdkGenerationBodyT } from './sdk-generations.schemas.js'
import { generated, sdkApp, unpacked, type SdkApp } from './sdk-generations.testkit.js'

// "A generated SDK archive unpacks and its tests pass": each language's archive, downloaded and unpacked into
// a temp folder, is loaded by its own language (its manifest read by that language's tooling) and makes a real
// request to a live server; the python package's own unittest suite runs from the unpacked folder against it
// (on SQLite, like sdk/python/python.sdk.test.ts).
//
// The archives are generated from the document the committed clients come from, built as
// scripts/write-openapi.ts builds spec/openapi.json (the registered modules, PUBLIC_URL https://api.example.com),
// i.e. the live server's operations: the suite checks the client covers exactly the server's operations, and
// pins the committed default origin. (A server generating for itself uses its own document and PUBLIC_URL:
// routes/create-sdk-generation.route.test.ts.)

const has = (cmd: string, args: string[]) => {
  const r = spawnSync(cmd, args, { encoding: 'utf8' })
  return !r.error && r.status === 0
}
const skipUnless = (cmd: string, args: string[]) => (has(cmd, args) ? false : `${cmd} is not available`)

/** Runs a child without blocking the event loop (the live server answers it from this process). */
function run(cmd: string, args: string[], opts: { cwd: string; env: Record<string, string> }, timeoutMs = 150_000): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: { ...process.env, ...opts.env }, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (c: Buffer) => (output += c.toString()))
    child.stderr.on('data', (c: Buffer) => (output += c.toString()))
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

describe('generated SDK archives unpack, load and talk to a live server', () => {
  let h: SdkApp
  let live: LiveServer
  const dirs: string[] = []
  /** The unpacked package folder of a generation made now. */
  let document: string
  const unpack = async (body: CreateSdkGenerationBodyT): Promise<{ root: string; g: any }> => {
    const g = await generated(h, body, async () => document)
    const { dir } = await unpacked(h, g)
    dirs.push(dir)
    return { root: join(dir, g.archive.filename.replace(/\.zip$/, '')), g }
  }
  before(async () => {
    h = await sdkApp()
    live = await startLiveServer()
    document = JSON.stringify(await buildOpenApiDocument())
  })
  after(async () => {
    for (const d of dirs) rmSync(d, { recursive: true, force: true })
    await live?.close()
    await h?.close()
  })

  it(
    'python: pyproject.toml names the package, the unpacked svc module makes a request, and its own suite passes',
    { skip: skipUnless('python3', ['-c', 'import sys, tomllib; assert sys.version_info >= (3, 11)']), timeout: 170_000 },
    async () => {
      const { root } = await unpack({ language: 'python', package_name: 'acme-svc', version: '3.1.0' })
      const env = { ...live.env, PYTHONPATH: root, PYTHONDONTWRITEBYTECODE: '1' }
      const meta = await run('python3', ['-c', 'import json, tomllib; p = tomllib.load(open("pyproject.toml", "rb"))["project"]; print(json.dumps([p["name"], p["version"]]))'], { cwd: root, env })
      assert.deepEqual(JSON.parse(meta.output), ['acme-svc', '3.1.0'], meta.output)
      const script =
        'import json, os, svc; c = svc.Client(api_key=os.environ["SVC_API_KEY"], base_url=os.environ["SVC_BASE_URL"]); print(json.dumps({"file": svc.__file__, "id": c.workspaces.current.get()["id"]}))'
      const call = await run('python3', ['-c', script], { cwd: root, env })
      assert.equal(call.code, 0, call.output)
      const out = JSON.parse(call.output)
      assert.ok(out.file.startsWith(root), `imported from the archive, not the repository: ${out.file}`)
      assert.equal(out.id, live.env.SVC_WORKSPACE_ID)
      if (ENGINE !== 'sqlite') return
      // The suite also pins the committed distribution name (svc-client): run on a package keeping it, re-versioned.
      const kept = await unpack({ language: 'python', version: '3.1.0' })
      const suite = await run('python3', ['-m', 'unittest', 'discover', '-s', 'tests', '-t', '.', '-v'], { cwd: kept.root, env: { ...env, PYTHONPATH: kept.root, PYTHONUNBUFFERED: '1' } })
      assert.equal(suite.code, 0, suite.output)
      assert.match(suite.output, /\nOK/, suite.output)
      assert.doesNotMatch(suite.output, /skipped=\d{2,}/, 'the live tests ran (SVC_* set)')
    },
  )

  it('node: package.json names the package, and the unpacked source makes a request', async () => {
    const { root } = await unpack({ language: 'node', package_name: '@acme/svc-node', version: '3.1.0-beta.2' })
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8'))
    assert.deepEqual([pkg.name, pkg.version], ['@acme/svc-node', '3.1.0-beta.2'])
    // The package ships its TypeScript source and build script (dist/ is built by `npm run build`): loaded through tsx here.
    const mod = await tsImport(pathToFileURL(join(root, 'src', 'index.ts')).href, import.meta.url)
    const client = new mod.Svc({ apiKey: live.env.SVC_API_KEY, baseUrl: live.env.SVC_BASE_URL })
    const ws = await client.workspaces.current.get()
    assert.equal(ws.id, live.env.SVC_WORKSPACE_ID)
  })

  it('php: composer.json names the package, and the unpacked client makes a request', { skip: skipUnless('php', ['-r', 'exit(extension_loaded("curl") ? 0 : 1);']) }, async () => {
    const { root } = await unpack({ language: 'php', package_name: 'acme/svc-php', version: '3.1.0' })
    const script =
      '$m = json_decode(file_get_contents("composer.json"), true); require "autoload.php"; $c = new Svc\\SvcClient(["api_key" => getenv("SVC_API_KEY"), "base_url" => getenv("SVC_BASE_URL")]); echo json_encode([$m["name"], $m["version"], $c->workspaces->current->get()["id"]]);'
    const call = await run('php', ['-r', script], { cwd: root, env: live.env })
    assert.equal(call.code, 0, call.output)
    assert.deepEqual(JSON.parse(call.output), ['acme/svc-php', '3.1.0', live.env.SVC_WORKSPACE_ID])
  })

  it('ruby: the gemspec loads with the new name and version, and the unpacked gem makes a request', { skip: skipUnless('ruby', ['-e', 'require "json"; require "net/http"']) }, async () => {
    const { root, g } = await unpack({ language: 'ruby', package_name: 'acme-svc', version: '3.1.0' })
    const provenance = JSON.parse(readFileSync(join(root, 'GENERATION.json'), 'utf8'))
    assert.equal(g.package_name, 'acme-svc')
    const script = `spec = Gem::Specification.load(${JSON.stringify(provenance.manifest)}); require "svc"; c = Svc::Client.new(api_key: ENV["SVC_API_KEY"], base_url: ENV["SVC_BASE_URL"]); puts JSON.generate([spec.name, spec.version.to_s, c.workspaces.current.get["id"]])`
    const call = await run('ruby', ['-Ilib', '-rjson', '-e', script], { cwd: root, env: live.env })
    assert.equal(call.code, 0, call.output)
    assert.deepEqual(JSON.parse(call.output.trim().split('\n').pop()!), ['acme-svc', '3.1.0', live.env.SVC_WORKSPACE_ID])
  })
})
