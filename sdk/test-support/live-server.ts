// What every client's test suite runs against: the real service in a process of its own
// (scripts/live-server.ts: the app on 127.0.0.1 with its worker, keys for both modes, the steerable proxy and a
// captured webhook delivery), reached over HTTP only. sdk/ never imports the service (docs/architecture.md,
// "Layering"): this file starts the process and reads the SVC_* variables it prints.
import { fileURLToPath } from 'node:url'
import { startAnnounced } from '../../lib/testing/announced-process.js'
import { LIVE_SERVER_READY, liveServerInfo, type LiveServerEnv, type LiveServerInfo } from '../../lib/testing/live-server.js'

/** The SVC_* fields and what they mean: lib/testing/live-server.ts. */
export type LiveServer = LiveServerInfo

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

export async function startLiveServer(): Promise<LiveServer> {
  const server = await startAnnounced<{ env: LiveServerEnv }>({ root: ROOT, script: 'scripts/live-server.ts', prefix: `${LIVE_SERVER_READY} `, label: 'live server' })
  return liveServerInfo(server.announced.env, () => server.close())
}
