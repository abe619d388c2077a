// What the clients' live server hands their suites, described once: scripts/live-server.ts builds it and prints
// it, sdk/test-support/live-server.ts reads it back from that line (sdk/ may import only lib/: docs/architecture.md,
// "Layering"), and the service's own archive test takes it in process.

/** The SVC_* variables the language suites read (passed to them as their environment). */
export type LiveServerEnv = {
  /** http://127.0.0.1:<port>/v2 */
  SVC_BASE_URL: string
  /** http://127.0.0.1:<port>/sandbox/v2 */
  SVC_SANDBOX_URL: string
  /** The same API through the proxy the tests steer. */
  SVC_PROXY_BASE_URL: string
  /** POST { "mode": "drop-next" | "429-next" | "pass" } here; GET answers { mode, requests }. */
  SVC_PROXY_CONTROL_URL: string
  /** Workspace A's live key, every scope. */
  SVC_API_KEY: string
  /** Workspace A's test key (the sandbox URL), every scope. */
  SVC_TEST_KEY: string
  /** Workspace B's live key, for cross-tenant checks. */
  SVC_OTHER_API_KEY: string
  /** Workspace A's id. */
  SVC_WORKSPACE_ID: string
  /** A JSON file: { secret, body, headers, tolerance_seconds } of one real delivery. */
  SVC_WEBHOOK_FIXTURE: string
  /** A JSON file: every operation of the served document with the place it has in the clients. */
  SVC_OPERATIONS_FIXTURE: string
}

/** The live server as a suite uses it, wherever it runs (a process of its own, or the test's). */
export interface LiveServerInfo {
  /** SVC_BASE_URL */
  baseUrl: string
  /** SVC_PROXY_BASE_URL */
  proxyBaseUrl: string
  /** SVC_PROXY_CONTROL_URL */
  proxyControlUrl: string
  /** SVC_WEBHOOK_FIXTURE */
  webhookFixture: string
  /** SVC_OPERATIONS_FIXTURE */
  operationsFixture: string
  env: LiveServerEnv
  close(): Promise<void>
}

/** The first word of the line the process prints once it answers; a space and `{"env": {…}}` follow. */
export const LIVE_SERVER_READY = 'SVC_LIVE_SERVER'

export function liveServerInfo(env: LiveServerEnv, close: () => Promise<void>): LiveServerInfo {
  return {
    baseUrl: env.SVC_BASE_URL,
    proxyBaseUrl: env.SVC_PROXY_BASE_URL,
    proxyControlUrl: env.SVC_PROXY_CONTROL_URL,
    webhookFixture: env.SVC_WEBHOOK_FIXTURE,
    operationsFixture: env.SVC_OPERATIONS_FIXTURE,
    env,
    close,
  }
}
