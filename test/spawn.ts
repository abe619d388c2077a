import { spawn, type ChildProcess } from 'node:child_process'
import { createServer } from 'node:net'
import { execFile } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)
const ROOT = new URL('..', import.meta.url).pathname
// The test runner's bundle of this run's source (scripts/test.mjs), when there is one: started like dist/main.js.
const BUILD = process.env.SVC_TEST_BUILD || ''
/** Node's arguments that start the service (`main`) or the operator's CLI (`cli`), from the repository root. */
export const entryArgs = (which: 'main' | 'cli'): string[] => (BUILD ? [`${BUILD}/${which}.js`] : ['--import', 'tsx', `src/${which}.ts`])

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer()
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port
      s.close(() => resolve(port))
    })
    s.on('error', reject)
  })
}

/** Run the CLI (`svc …`) against the given environment; returns stdout. */
export async function svc(args: string[], env: Record<string, string>): Promise<string> {
  const { stdout } = await run(process.execPath, [...entryArgs('cli'), ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...env },
  })
  return stdout
}

export interface ServerProcess {
  child: ChildProcess
  port: number
  url: string
  output(): string
  /** Resolves with the exit code. */
  exited: Promise<number | null>
  stop(signal?: NodeJS.Signals): Promise<number | null>
}

/** Start `npm start`'s entry point as a real process and wait until /livez answers. */
export async function startServer(env: Record<string, string>, args: string[] = [], entry = 'src/main.ts'): Promise<ServerProcess> {
  const port = Number(env.PORT ?? (await freePort()))
  if (entry === 'src/main.ts' && BUILD) entry = `${BUILD}/main.js`
  const child = spawn(process.execPath, [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry, ...args], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', HOST: '127.0.0.1', ...env, PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const url = `http://127.0.0.1:${port}`
  const worker = args.includes('worker') || env.SVC_ROLE === 'worker'
  const deadline = Date.now() + 90_000
  while (!worker) {
    if (child.exitCode !== null) throw new Error(`server exited early: ${out}`)
    try {
      const r = await fetch(`${url}/livez`)
      if (r.ok) break
    } catch {
      /* not yet */
    }
    if (Date.now() > deadline) throw new Error(`server did not start: ${out}`)
    await new Promise((r) => setTimeout(r, 100))
  }
  return {
    child,
    port,
    url,
    output: () => out,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null) child.kill(signal)
      return exited
    },
  }
}
