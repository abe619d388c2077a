// test-engines: sqlite (no database involved: one pass is enough; scripts/test.mjs leaves it out of PostgreSQL's)
import assert from 'node:assert/strict'
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, it } from 'node:test'
import { Ajv } from 'ajv'
import { validate as lintDockerfile } from 'dockerfile-utils'
import { ConfigMap, PersistentVolumeClaim, Service } from 'kubernetes-models/v1'
import { Deployment } from 'kubernetes-models/apps/v1'
import { Job } from 'kubernetes-models/batch/v1'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1'
import { parse, parseAllDocuments } from 'yaml'
import { ENV_SCHEMA } from '../src/config-schema.js'

// The deployment artefacts, checked offline by real validators: the Containerfile by dockerfile-utils (the
// Docker language server's linter), compose.yaml by the Compose Specification's own JSON schema (what
// `docker compose config` checks) after Compose's variable interpolation, the Kubernetes manifests by
// kubernetes-models (validators generated from Kubernetes' OpenAPI schemas), the systemd unit by
// `systemd-analyze verify` where the host has it. Then what the issue asks of each: non-root, probes, resources.
const ROOT = new URL('..', import.meta.url).pathname
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?error}, $$ (spec "Interpolation"). */
function interpolate(value: unknown, env: Record<string, string>): unknown {
  if (typeof value === 'string') {
    return value.replace(/\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}/g, (whole, name: string | undefined, colon: string, op: string, arg: string) => {
      if (!name) return '$'
      const v = env[name]
      const missing = colon ? !v : v === undefined
      if (op === '?' && missing) throw new Error(`required variable ${name} is missing a value: ${arg}`)
      if (op === '-' && missing) return arg
      return v ?? ''
    })
  }
  if (Array.isArray(value)) return value.map((v) => interpolate(v, env))
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolate(v, env)]))
  return value
}

function composeModel(env: Record<string, string>) {
  return interpolate(parse(read('compose.yaml'), { merge: true }), env) as any
}

const MODELS: Record<string, new (data: any) => { validate(): void }> = {
  'v1/ConfigMap': ConfigMap,
  'v1/PersistentVolumeClaim': PersistentVolumeClaim,
  'v1/Service': Service,
  'apps/v1/Deployment': Deployment,
  'batch/v1/Job': Job,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget,
}
const K8S = 'deploy/kubernetes'
const manifests = () =>
  readdirSync(join(ROOT, K8S))
    .filter((f) => f.endsWith('.yaml') && f !== 'kustomization.yaml')
    .flatMap((f) => parseAllDocuments(read(join(K8S, f))).map((d) => ({ file: f, object: d.toJS() as any })))
const byKind = (kind: string) =>
  manifests()
    .filter((m) => m.object.kind === kind)
    .map((m) => m.object)

describe('deployment artefacts', () => {
  it('Containerfile: lints clean; multi-stage from a BASE_IMAGE argument, non-root, tini, node dist/main.js, health check on /livez', () => {
    const text = read('Containerfile')
    assert.deepEqual(
      lintDockerfile(text).map((d) => d.message),
      [],
    )
    const lines = text.split('\n').filter((l) => l && !l.startsWith('#'))
    assert.match(lines[0], /^ARG BASE_IMAGE=/)
    assert.deepEqual(
      lines.filter((l) => l.startsWith('FROM')),
      ['FROM ${BASE_IMAGE} AS build', 'FROM ${BASE_IMAGE}'],
    )
    assert.ok(
      lines.some((l) => /^RUN node scripts\/build\.mjs --cli/.test(l)),
      'built once, in the image',
    )
    assert.ok(lines.includes('USER 10001:10001'))
    assert.ok(lines.includes('ENTRYPOINT ["/usr/bin/tini", "--"]'))
    // No --enable-source-maps: the first formatted stack trace would decode the whole map into the heap (~80 MB, kept).
    assert.ok(lines.includes('CMD ["node", "dist/main.js"]'))
    assert.match(text, /HEALTHCHECK [^\n]*\\\n\s+CMD \["node", "-e", "fetch\('http:\/\/127\.0\.0\.1:' \+ \(process\.env\.PORT \|\| 8080\) \+ '\/livez'\)/)
    // What the build context leaves out (installed and built inside the image instead).
    for (const ignore of ['.containerignore', '.dockerignore']) assert.match(read(ignore), /^node_modules$/m)
  })

  it('every start command sets the heap ceiling (docs/operations.md "Memory"): npm start, the image, the systemd unit; the worker manifest raises it', () => {
    // The old space's ceiling and the young generation's semi-space (8 MB, half V8's default: ~20 MB less RSS).
    const limits = /--max-old-space-size=128 --max-semi-space-size=8\b/
    const start = JSON.parse(read('package.json')).scripts.start
    assert.match(start, limits)
    assert.match(read('Containerfile'), /^\s+NODE_OPTIONS="--max-old-space-size=128 --max-semi-space-size=8" \\$/m)
    assert.match(read('deploy/systemd/svc@.service'), /^Environment="NODE_OPTIONS=--max-old-space-size=128 --max-semi-space-size=8"$/m)
    // Two malloc arenas for the native side (~12 MB less RSS in a soak; docs/operations.md "Memory").
    assert.match(start, /^MALLOC_ARENA_MAX=2 node /)
    assert.match(read('Containerfile'), /^\s+MALLOC_ARENA_MAX=2 \\$/m)
    assert.match(read('deploy/systemd/svc@.service'), /^Environment=MALLOC_ARENA_MAX=2$/m)
    const worker = byKind('Deployment').find((d) => d.metadata.name === 'svc-worker')
    const env = worker.spec.template.spec.containers[0].env as { name: string; value: string }[]
    const heap = Number(/--max-old-space-size=(\d+)/.exec(env.find((e) => e.name === 'NODE_OPTIONS')?.value ?? '')?.[1])
    const limitMi = parseInt(worker.spec.template.spec.containers[0].resources.limits.memory, 10)
    assert.ok(heap > 128 && heap < limitMi, `worker heap ${heap} MB within its ${limitMi}Mi limit`)
    // Source maps on would put the decoded map (~80 MB) into that heap at the first stack trace: no start command has them.
    for (const file of ['package.json', 'Containerfile', 'deploy/systemd/svc@.service', 'compose.yaml']) assert.doesNotMatch(read(file), /enable-source-maps/, file)
    for (const d of byKind('Deployment')) assert.doesNotMatch(JSON.stringify(d), /enable-source-maps/, d.metadata.name)
  })

  it('compose.yaml: valid against the Compose Specification schema; API and worker roles with PostgreSQL, Redis and volumes', () => {
    const ajv = new Ajv({ allErrors: true, strict: false })
    // Draft-07 (Ajv's default); its $schema names draft-07 by an https address Ajv does not list.
    const { $schema, ...schema } = JSON.parse(read('test/deploy/compose-spec.json'))
    assert.match($schema, /draft-07/)
    const validate = ajv.compile(schema)
    const model: any = composeModel({ SERVER_SECRET: 'x'.repeat(44), POSTGRES_PASSWORD: 'pw' })
    const valid = validate(model) as boolean
    assert.ok(valid, JSON.stringify(validate.errors, null, 2))
    // The schema does catch faults (a misspelt key, a wrong type): the check is not vacuous.
    assert.equal(validate({ ...model, services: { ...model.services, api: { ...model.services.api, helthcheck: {} } } }), false)
    assert.equal(validate({ ...model, services: { ...model.services, redis: { ...model.services.redis, restart: ['always'] } } }), false)
    assert.throws(() => composeModel({ POSTGRES_PASSWORD: 'pw' }), /SERVER_SECRET/, 'no start without a server secret')

    const { api, worker, postgres, redis } = model.services
    assert.equal(api.environment.SVC_ROLE, 'api')
    assert.equal(worker.environment.SVC_ROLE, 'worker')
    assert.equal(api.environment.DATABASE_URL, 'postgres://svc:pw@postgres:5432/svc')
    assert.equal(api.environment.REDIS_URL, 'redis://redis:6379')
    assert.equal(api.image, worker.image)
    assert.match(api.healthcheck.test.join(' '), /\/readyz/)
    assert.equal(worker.healthcheck.disable, true, 'a worker serves no HTTP')
    for (const s of [api, worker]) {
      assert.equal(s.depends_on.postgres.condition, 'service_healthy')
      assert.equal(s.depends_on.redis.condition, 'service_healthy')
      assert.deepEqual(s.volumes, ['svc-data:/var/lib/svc'])
      // Every variable given to the service is one it reads (src/config-schema.ts).
      for (const name of Object.keys(s.environment)) assert.ok(name in ENV_SCHEMA.properties, `${name} is a setting`)
    }
    assert.ok(postgres.healthcheck && redis.healthcheck)
    assert.deepEqual(Object.keys(model.volumes).sort(), ['postgres-data', 'redis-data', 'svc-data'])
    assert.deepEqual(postgres.volumes, ['postgres-data:/var/lib/postgresql/data'])
    assert.deepEqual(redis.volumes, ['redis-data:/data'])
  })

  it('Kubernetes: every object valid against its OpenAPI schema, and kustomization lists every file', () => {
    const all = manifests()
    for (const { file, object } of all) {
      const Model = MODELS[`${object.apiVersion}/${object.kind}`]
      assert.ok(Model, `${file}: ${object.apiVersion} ${object.kind} has a validator here`)
      assert.doesNotThrow(() => new Model(object).validate(), `${file}: ${object.kind} ${object.metadata?.name}`)
    }
    assert.throws(() => new Deployment({ ...byKind('Deployment')[0], spec: { ...byKind('Deployment')[0].spec, replicas: 'two' } }).validate(), /replicas must be integer/)
    const kustomization = parse(read(join(K8S, 'kustomization.yaml')))
    assert.deepEqual([...kustomization.resources].sort(), [...new Set(all.map((m) => m.file))].sort())
    for (const { object } of all) for (const name of Object.keys(object.data ?? {})) assert.ok(name in ENV_SCHEMA.properties, `${name} is a setting`)
  })

  it('Kubernetes: API probes on /readyz and /livez, resources and non-root everywhere, a migration Job, roles by SVC_ROLE', () => {
    const deployments = Object.fromEntries(byKind('Deployment').map((d) => [d.metadata.name, d]))
    const api = deployments['svc-api'].spec.template.spec
    const worker = deployments['svc-worker'].spec.template.spec
    const job = byKind('Job').find((j) => j.metadata.name === 'svc-migrate').spec.template.spec
    assert.equal(api.containers[0].readinessProbe.httpGet.path, '/readyz')
    assert.equal(api.containers[0].livenessProbe.httpGet.path, '/livez')
    assert.deepEqual(job.containers[0].command, ['node', 'dist/cli.js', 'migrate'])
    assert.equal(job.restartPolicy, 'Never')
    for (const [pod, role] of [
      [api, 'api'],
      [worker, 'worker'],
      [job, null],
    ] as const) {
      assert.equal(pod.securityContext.runAsNonRoot, true)
      const c = pod.containers[0]
      assert.equal(c.image, 'svc')
      assert.ok(c.resources.requests.cpu && c.resources.requests.memory && c.resources.limits.memory, `${c.name}: resources`)
      assert.equal(c.securityContext.allowPrivilegeEscalation, false)
      if (role)
        assert.deepEqual(
          c.env.filter((e: { name: string }) => e.name === 'SVC_ROLE'),
          [{ name: 'SVC_ROLE', value: role }],
        )
      assert.ok(pod.terminationGracePeriodSeconds === undefined || pod.terminationGracePeriodSeconds >= 15, 'longer than SHUTDOWN_TIMEOUT_MS + 5 s')
    }
    const service = byKind('Service')[0]
    assert.deepEqual(service.spec.selector, deployments['svc-api'].spec.selector.matchLabels)
  })

  it('systemd: one template unit per role that runs the built bundle as an unprivileged user', () => {
    const unit = read('deploy/systemd/svc@.service')
    assert.match(unit, /^ExecStart=\/usr\/bin\/node dist\/main\.js$/m)
    assert.match(unit, /^Environment=SVC_ROLE=%i$/m)
    assert.match(unit, /^User=svc$/m)
    assert.match(unit, /^TimeoutStopSec=20$/m)
    assert.doesNotMatch(unit, /MemoryDenyWriteExecute=yes/, 'V8 needs writable executable memory')
    // systemd's own checker, where this host has one (it reads the unit offline; it does not start it).
    if (!existsSync('/usr/bin/systemd-analyze')) return
    const out = execFileSync(
      '/bin/sh',
      [
        '-c',
        'd=$(mktemp -d) && cp "$1" "$d/svc@all.service" && systemd-analyze verify --man=no "$d/svc@all.service" 2>&1; s=$?; rm -rf "$d"; exit $s',
        'sh',
        join(ROOT, 'deploy/systemd/svc@.service'),
      ],
      { encoding: 'utf8' },
    )
    assert.equal(
      out
        .split('\n')
        .filter((l) => /svc@/.test(l))
        .join('\n'),
      '',
    )
  })
})
