import { buildApp, createKernel, createLogger } from './app.js'
import { bootstrapIfEmpty } from './bootstrap.js'
import { loadConfig, type Config } from './config.js'
import { scheduleMaintenance } from './kernel/maintenance.js'

/**
 * One binary, three roles (SVC_ROLE or --role): `api` serves HTTP, `worker` runs jobs, `all` (default)
 * does both. SIGTERM/SIGINT stop accepting, finish in-flight requests and jobs (bounded), close pools.
 */
export async function main(argv: string[] = process.argv.slice(2)): Promise<void> {
  const roleArg = argv.find((a) => a.startsWith('--role='))?.split('=')[1] ?? (argv.includes('--role') ? argv[argv.indexOf('--role') + 1] : undefined)
  const config: Config = loadConfig(roleArg ? { ...process.env, SVC_ROLE: roleArg } : process.env)
  const log = createLogger(config)
  const serveHttp = config.role !== 'worker'
  const runJobs = config.role !== 'api'

  let closeAll: () => Promise<void>
  if (serveHttp) {
    const app = await buildApp({ config, logger: log })
    const first = await bootstrapIfEmpty(app.kernel, app.services)
    if (first) printFirstStart(config, first)
    await app.http.listen({ host: config.host, port: config.port })
    if (runJobs) {
      app.kernel.jobs.start()
      scheduleMaintenance(app.kernel)
    }
    log.info({ role: config.role, live: `http://${config.host}:${config.port}/v2`, sandbox: `http://${config.host}:${config.port}/sandbox/v2`, engine: app.kernel.database.engine }, 'listening')
    closeAll = () => app.close()
  } else {
    const { kernel, services } = await createKernel({ config, logger: log })
    const first = await bootstrapIfEmpty(kernel, services)
    if (first) printFirstStart(config, first)
    kernel.jobs.start()
    scheduleMaintenance(kernel)
    log.info({ role: config.role, engine: kernel.database.engine }, 'worker started')
    closeAll = async () => {
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

function printFirstStart(config: Config, keys: { workspaceId: string; live: string; test: string }): void {
  // Printed once, to stdout, not through the logger: these are the only copies of the keys.
  const host = config.host === '0.0.0.0' ? 'localhost' : config.host
  process.stdout.write(
    [
      '',
      'First start: created workspace ' + keys.workspaceId + ' with two keys holding every scope.',
      'They are shown only now; store them safely.',
      `  live key (http://${host}:${config.port}/v2):          ${keys.live}`,
      `  test key (http://${host}:${config.port}/sandbox/v2):  ${keys.test}`,
      '',
    ].join('\n') + '\n',
  )
}

main().catch((err) => {
  console.error(err)
  process.exit(1)
})
