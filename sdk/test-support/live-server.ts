// What every client's test suite runs against: the real service in a process of its own
// (scripts/live-server.ts: the app on 127.0.0.1 with its worker, keys for both modes, the steerable proxy and a
// captured webhook delivery), reached over HTTP only. sdk/ never imports the service (docs/architecture.md,
// "Layering"): this file starts the process and reads the SVC_* variables it prints.
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'

export interface LiveServer {
  /** http://127.0.0.1:<port>/v2 */
  baseUrl: string
  /** The same API through the proxy. */
  proxyBaseUrl: string
  /** POST { "mode": "drop-next" | "429-next" | "pass" } here; GET answers { mode, requests }. */
  proxyControlUrl: string
  /** A JSON file: { secret, body, headers, tolerance_seconds } of one real delivery. */
  webhookFixture: string
  /** A JSON file: every operation of the served document with the place it has in the clients. */
  operationsFixture: string
  /** What the language suites read: SVC_* variables. */
  env: Record<string, string>
  close(): Promise<void>
}

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
/** The first line of the process once it answers (READY in scripts/live-server.ts). */
const READY = 'SVC_LIVE_SERVER '
const START_TIMEOUT_MS = 120_000

export async function startLiveServer(): Promise<LiveServer> {
  // stdin stays a pipe: the server stops when it closes, so a test process that dies leaves no server behind.
  const child = spawn(process.execPath, ['--import', 'tsx', 'scripts/live-server.ts'], { cwd: ROOT, env: process.env, stdio: ['pipe', 'pipe', 'pipe'] })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  let output = ''
  child.stderr.on('data', (c: Buffer) => (output += c.toString()))
  const env = await new Promise<Record<string, string>>((resolve, reject) => {
    let pending = ''
    const timer = setTimeout(() => reject(new Error(`the live server did not start within ${START_TIMEOUT_MS / 1000} s:\n${output}`)), START_TIMEOUT_MS)
    child.stdout.on('data', (c: Buffer) => {
      pending += c.toString()
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl)
        pending = pending.slice(nl + 1)
        if (!line.startsWith(READY)) {
          output += `${line}\n`
          continue
        }
        clearTimeout(timer)
        resolve((JSON.parse(line.slice(READY.length)) as { env: Record<string, string> }).env)
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the live server exited (${code}) before it answered:\n${output}`))
    })
  }).catch((err: unknown) => {
    child.kill('SIGKILL')
    throw err
  })
  return {
    baseUrl: env.SVC_BASE_URL,
    proxyBaseUrl: env.SVC_PROXY_BASE_URL,
    proxyControlUrl: env.SVC_PROXY_CONTROL_URL,
    webhookFixture: env.SVC_WEBHOOK_FIXTURE,
    operationsFixture: env.SVC_OPERATIONS_FIXTURE,
    env,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      // Its database and temporary files go with a clean stop; one that hangs is ended.
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}
