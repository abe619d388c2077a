import cluster from 'node:cluster'
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Logger } from 'pino'
import { envWarnings } from './config-env.js'
import { loadConfig, type Config } from './config.js'
import { createLogger } from './logger.js'

/** Under DATA_DIR: the first start's keys, readable by the owner only. */
const FIRST_START_FILE = 'first-start-keys.txt'

/**
 * One binary, three roles (SVC_ROLE or --role): `api` serves HTTP, `worker` runs jobs, `all` (default)
 * does both. SIGTERM/SIGINT stop accepting, finish in-flight requests and jobs (bounded), close pools.
 * WEB_CONCURRENCY > 1 makes this process the primary of that many HTTP processes (kernel/cluster).
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const roleArg = argv.find((a) => a.startsWith('--role='))?.split('=')[1] ?? (argv.includes('--role') ? argv[argv.indexOf('--role') + 1] : undefined)
  // A cluster worker's role is the one its primary gave it (SVC_ROLE per slot), not the command line's.
  const config: Config = loadConfig(roleArg && !cluster.isWorker ? { ...process.env, SVC_ROLE: roleArg } : process.env)
  const log = createLogger(config)
  // Unknown SVC_ names and near misses of known ones (PROT, DATABSE_URL): the setting meant is probably not in effect.
  if (!cluster.isWorker) for (const warning of envWarnings(process.env)) log.warn({ config: true }, warning)
  const serveHttp = config.role !== 'worker'
  const runJobs = config.role !== 'api'
  if (serveHttp && config.webConcurrency > 1 && cluster.isPrimary) {
    // The primary serves nothing, so it loads none of the modules.
    const { runClusterPrimary } = await import('./kernel/cluster/cluster-primary.js')
    return runClusterPrimary(config, log, { exec: process.argv[1], args: argv })
  }
  if (!serveHttp && config.webConcurrency > 1) log.warn({ web_concurrency: config.webConcurrency }, 'WEB_CONCURRENCY applies to HTTP processes; a worker runs JOB_CONCURRENCY jobs at once')
  const { buildApp, createKernel } = await import('./app.js')
  const { bootstrapIfEmpty } = await import('./bootstrap.js')
  const { scheduleMaintenance } = await import('./kernel/maintenance.js')

  let closeAll: () => Promise<void>
  let stopMaintenance: (() => Promise<void>) | null = null
  if (serveHttp) {
    const app = await buildApp({ config, logger: log })
    // In a cluster, slot 0 starts alone and bootstraps; the others start once it listens.
    const first = config.processSlot === 0 ? await bootstrapIfEmpty(app.kernel, app.services) : null
    if (first) printFirstStart(config, log, first)
    await app.http.listen({ host: config.host, port: config.port })
    if (runJobs) {
      app.kernel.jobs.start()
      stopMaintenance = scheduleMaintenance(app.kernel, app.services)
    }
    const base = config.publicUrl
    log.info({ role: config.role, live: `${base}/v2`, sandbox: `${base}/sandbox/v2`, docs: `${base}/v2/api-docs`, engine: app.kernel.database.engine }, `listening on ${base}/v2`)
    closeAll = async () => {
      await stopMaintenance?.()
      await app.close()
    }
  } else {
    const { kernel, services } = await createKernel({ config, logger: log })
    const first = await bootstrapIfEmpty(kernel, services)
    if (first) printFirstStart(config, log, first)
    kernel.jobs.start()
    stopMaintenance = scheduleMaintenance(kernel, services)
    log.info({ role: config.role, engine: kernel.database.engine }, 'worker started')
    closeAll = async () => {
      await stopMaintenance?.()
      await kernel.jobs.stop(config.shutdownTimeoutMs)
      await kernel.requests.flush()
      await kernel.database.close()
    }
  }

  let stopping = false
  const stop = (signal: string) => {
    if (stopping) return
    stopping = true
    log.info({ signal }, 'shutting down')
    const hard = setTimeout(() => {
      log.error('shutdown timed out')
      process.exit(1)
    }, config.shutdownTimeoutMs + 5000)
    hard.unref()
    closeAll().then(
      () => {
        log.info('stopped')
        process.exit(0)
      },
      (err) => {
        log.error({ err }, 'shutdown failed')
        process.exit(1)
      },
    )
  }
  process.on('SIGTERM', () => stop('SIGTERM'))
  process.on('SIGINT', () => stop('SIGINT'))
}

/**
 * The first-start keys are the only copies: they go to a file only the owner can read, and to the
 * terminal when there is one — never into the log stream, which log shippers collect.
 */
function printFirstStart(config: Config, log: Logger, keys: { workspaceId: string; live: string; test: string }): void {
  const base = config.publicUrl
  const text = [
    `First start: created workspace ${keys.workspaceId} with two keys holding every scope.`,
    'They are shown only now; store them safely, then delete this file. Lost them? Make new ones:',
    '  npm run --silent svc -- keys create --scopes admin',
    `  live key (${base}/v2):          ${keys.live}`,
    `  test key (${base}/sandbox/v2):  ${keys.test}`,
    '',
  ].join('\n')
  const path = join(config.dataDir, FIRST_START_FILE)
  mkdirSync(config.dataDir, { recursive: true })
  writeFileSync(path, text, { mode: 0o600 })
  chmodSync(path, 0o600) // also when an old file was there
  if (process.stderr.isTTY) process.stderr.write(`\n${text}\n`)
  // warn: it must reach an operator even at LOG_LEVEL=warn — a file holding keys now exists.
  log.warn({ workspace_id: keys.workspaceId, path }, `first start: created a workspace and two keys; the keys are in ${path} (mode 0600)${process.stderr.isTTY ? ' and on the terminal' : ''}`)
}

main().catch((err) => {
  // A refusal to start (another node's server secret, a faulty variable) is the operator's to fix: its message, not a stack.
  const operators = err instanceof Error && (err.name === 'ServerSecretMismatch' || err.name === 'ConfigError')
  console.error(operators ? `svc: refusing to start: ${err.message}` : err)
  process.exit(1)
})
