import assert from 'node:assert/strict'
import { spawn } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { after, before, describe, it } from 'node:test'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import addFormatsModule, { type FormatsPlugin } from 'ajv-formats'
import { createParser } from 'eventsource-parser'
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript'
import { MODULES } from '../src/modules/index.js'
import { createTestApp, ENGINE, type TestApp } from './helpers.js'

// ajv-formats is CommonJS; under ESM its function may sit on .default.
const addFormats = ((addFormatsModule as unknown as { default?: FormatsPlugin }).default ?? addFormatsModule) as FormatsPlugin

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const TEMPLATE = new URL('./client-flow.ts.txt', import.meta.url)
const routes = MODULES.flatMap((m) => m.routes)

/** Headers the document declares on every response of every operation. */
const EVERYWHERE = ['x-request-id', 'svc-api-version', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset', 'ratelimit', 'ratelimit-policy']

interface Recorded {
  method: string
  schemaPath: string
  status: number
  contentType: string | null
  body: string
  headers: Record<string, string>
}
type Json = Record<string, any>

function run(command: string, args: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs: number }): Promise<{ code: number | null; output: string }> {
  // Asynchronous: the flow talks to the server running in this very process.
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { cwd: opts.cwd, env: opts.env ?? process.env, stdio: ['ignore', 'pipe', 'pipe'] })
    let output = ''
    child.stdout.on('data', (d) => (output += d))
    child.stderr.on('data', (d) => (output += d))
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs)
    child.on('error', reject)
    child.on('close', (code) => {
      clearTimeout(timer)
      resolve({ code, output })
    })
  })
}

const pointer = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1')

/** The data of each event of a text/event-stream body (parsed by eventsource-parser); events without an id are reported. */
function eventData(body: string, report: (problem: string) => void): string[] {
  const data: string[] = []
  const parser = createParser({
    onEvent: (e) => {
      if (!e.id) report(`event ${e.event ?? '(unnamed)'} has no id`)
      data.push(e.data)
    },
  })
  parser.feed(body)
  if (data.length === 0) report('the event stream has no event')
  return data
}

describe('generated client: openapi-typescript + openapi-fetch against the live server', () => {
  let h: TestApp
  let baseUrl: string
  let dir: string
  let doc: Json
  let recorded: Recorded[] = []
  let compiled = false

  before(async () => {
    h = await createTestApp()
    await h.http().listen({ port: 0, host: '127.0.0.1' })
    // The worker runs too: the flow waits for an agent run to stop for its approval.
    h.app.kernel.jobs.start()
    baseUrl = `http://127.0.0.1:${(h.http().server.address() as AddressInfo).port}`
    // Inside the repository (.tmp is ignored), so the flow resolves openapi-fetch and @types/node.
    mkdirSync(join(ROOT, '.tmp'), { recursive: true })
    dir = mkdtempSync(join(ROOT, '.tmp', 'generated-client-'))
  })
  after(async () => {
    if (!process.env.KEEP_GENERATED_CLIENT) rmSync(dir, { recursive: true, force: true })
    await h.close()
  })

  it('generates TypeScript types from the served document', async () => {
    const res = await fetch(`${baseUrl}/v2/openapi.json`)
    assert.equal(res.status, 200)
    doc = (await res.json()) as Json
    const types = astToString(await openapiTS(doc as OpenAPI3))
    assert.match(types, /export interface paths/)
    writeFileSync(join(dir, 'api.d.ts'), types)
  })

  it('compiles the client flow with tsc --strict (no catch-all type, no type assertions)', async () => {
    const flow = readFileSync(TEMPLATE, 'utf8')
    const code = flow.replace(/^\s*\/\/.*$/gm, '')
    for (const [re, what] of [
      [/\bany\b/, 'the catch-all type'],
      [/\bas\s+(?!const\b)[A-Za-z{[(]/, 'a type assertion'],
      [/@ts-(ignore|expect-error|nocheck)/, 'a suppressed type error'],
    ] as const) {
      assert.ok(!re.test(code), `test/client-flow.ts.txt uses ${what}: ${re.exec(code)?.[0]}`)
    }
    writeFileSync(join(dir, 'flow.ts'), flow)
    const tsconfig = {
      compilerOptions: {
        target: 'ES2022',
        module: 'NodeNext',
        moduleResolution: 'NodeNext',
        strict: true,
        noEmit: true,
        noUnusedLocals: true,
        skipLibCheck: true,
        lib: ['ES2022', 'DOM'],
        types: ['node'],
      },
      files: ['flow.ts', 'api.d.ts'],
    }
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(tsconfig, null, 2))
    // The served document and the flow are the same on both engines: the compile (~20 s of CPU) runs on SQLite's pass.
    if (ENGINE !== 'postgres') {
      const tsc = await run(process.execPath, [join(ROOT, 'node_modules/typescript/bin/tsc'), '-p', join(dir, 'tsconfig.json')], { cwd: dir, timeoutMs: 60_000 })
      assert.equal(tsc.code, 0, `tsc --strict failed:\n${tsc.output}`)
    }
    compiled = true
  })

  it('runs the flow against the live server, calling every operation of the route table', async () => {
    assert.ok(compiled, 'the flow did not compile')
    const out = join(dir, 'responses.json')
    const flow = await run(process.execPath, ['--import', 'tsx', join(dir, 'flow.ts')], {
      cwd: dir,
      timeoutMs: 60_000,
      env: { ...process.env, FLOW_BASE_URL: `${baseUrl}/v2`, FLOW_API_KEY: h.a.live, FLOW_WORKSPACE_ID: h.a.workspaceId, FLOW_OUT: out },
    })
    assert.equal(flow.code, 0, `the flow failed:\n${flow.output}`)
    recorded = JSON.parse(readFileSync(out, 'utf8')) as Recorded[]
    const called = new Set<string>()
    for (const r of recorded) {
      const op = doc.paths[r.schemaPath]?.[r.method.toLowerCase()]
      assert.ok(op, `${r.method} ${r.schemaPath} is not an operation of the document`)
      called.add(op.operationId)
    }
    assert.deepEqual([...called].sort(), routes.map((r) => r.operationId).sort(), 'the flow must call every operation (add a call to test/client-flow.ts.txt)')
  })

  it('every response matches what the document declares for its status: schema, media type and headers', () => {
    assert.ok(recorded.length > 0, 'the flow recorded nothing')
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true })
    addFormats(ajv)
    ajv.addSchema(doc, 'openapi.json')
    const validators = new Map<string, ValidateFunction>()
    const mismatches: string[] = []
    for (const r of recorded) {
      const method = r.method.toLowerCase()
      const op = doc.paths[r.schemaPath][method]
      const label = `${op.operationId} ${r.status}`
      const code = String(r.status)
      const key = op.responses[code] ? code : op.responses[`${code[0]}XX`] ? `${code[0]}XX` : 'default'
      const declared = op.responses[key]
      if (!declared) {
        mismatches.push(`${label}: status not declared`)
        continue
      }
      for (const name of EVERYWHERE) if (!(name in r.headers)) mismatches.push(`${label}: header ${name} missing`)
      const headerNames = Object.keys(declared.headers ?? {}).map((n) => n.toLowerCase())
      if ('idempotent-replayed' in r.headers && !headerNames.includes('idempotent-replayed')) mismatches.push(`${label}: Idempotent-Replayed not declared`)
      for (const name of EVERYWHERE) if (!headerNames.includes(name)) mismatches.push(`${label}: header ${name} not declared`)
      const mediaType = (r.contentType ?? '').split(';')[0].trim().toLowerCase()
      if (!declared.content && r.body === '') continue // a response without a body (an ended stream's 204)
      if (!declared.content?.[mediaType]) {
        mismatches.push(`${label}: media type ${JSON.stringify(mediaType)} not declared (${Object.keys(declared.content ?? {}).join(', ')})`)
        continue
      }
      const ref = `openapi.json#/paths/${pointer(r.schemaPath)}/${method}/responses/${key}/content/${pointer(mediaType)}/schema`
      let validate = validators.get(ref)
      if (!validate) {
        validate = ajv.compile({ $ref: ref })
        validators.set(ref, validate)
      }
      // An event stream (call it with `parseAs: 'text'`): each event has an id, and its data matches the schema.
      const bodies = mediaType === 'text/event-stream' ? eventData(r.body, (e) => mismatches.push(`${label}: ${e}`)) : [r.body]
      for (const body of bodies) {
        if (!validate(JSON.parse(body))) {
          mismatches.push(`${label}: body does not match ${ref}: ${ajv.errorsText(validate.errors)}\n  ${body.slice(0, 500)}`)
        }
      }
    }
    assert.deepEqual(mismatches, [])
    // Error answers were exercised too (problem+json against the Problem schema).
    assert.ok(recorded.some((r) => r.status === 401) && recorded.some((r) => r.status === 404) && recorded.some((r) => r.status === 409) && recorded.some((r) => r.status === 422))
    assert.ok(
      recorded.some((r) => r.headers['idempotent-replayed'] === 'true'),
      'an idempotent replay was exercised',
    )
  })
})
