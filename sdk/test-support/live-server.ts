// What every client's test suite runs against: the real service in a process of its own
// (scripts/live-server.ts: the app on 127.0.0.1 with its worker, keys for both modes, the steerable proxy and a
// captured webhook delivery), reached over HTTP only. sdk/ never imports the service (docs/architecture.md,
// "Layering"): this file starts the process and reads the SVC_* variables it prints.
import { fileURLToPath } from 'node:url'
import { startAnnounced } from '../../lib/testing/announced-process.js'

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

export async function startLiveServer(): Promise<LiveServer> {
  const server = await startAnnounced<{ env: Record<string, string> }>({ root: ROOT, script: 'scripts/live-server.ts', prefix: READY, label: 'live server' })
  const env = server.announced.env
  return {
    baseUrl: env.SVC_BASE_URL,
    proxyBaseUrl: env.SVC_PROXY_BASE_URL,
    proxyControlUrl: env.SVC_PROXY_CONTROL_URL,
    webhookFixture: env.SVC_WEBHOOK_FIXTURE,
    operationsFixture: env.SVC_OPERATIONS_FIXTURE,
    env,
    close: () => server.close(),
  }
}
