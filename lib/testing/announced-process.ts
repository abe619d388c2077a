// A test process that announces itself: the service's test servers (scripts/live-server.ts for the clients'
// suites, scripts/e2e-server.ts for the dashboard's browser tests) print one line `<PREFIX><json>` once they
// answer. sdk/ and dashboard/ start them through this, over nothing but a process and HTTP (docs/architecture.md,
// "Layering"); it lives in lib/, the layer both may import.
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process'
import { existsSync } from 'node:fs'
import { basename, join } from 'node:path'

export interface AnnouncedProcess<T> {
  /** What the process announced (the JSON after the prefix). */
  announced: T
  /** Stops it: SIGTERM (its database and temporary files go with a clean stop), SIGKILL after 15 s. */
  close(): Promise<void>
}

/**
 * `node <script> ...args` in `root`, answered once its line `prefix` + JSON arrives. The script runs from the test
 * run's bundle where the runner built one (SVC_TEST_SCRIPTS, scripts/test.mjs: no TypeScript loader to pay), else
 * from its source through tsx. stdin stays a pipe: the process stops when it closes, so a test process that dies
 * leaves no server behind.
 */
export async function startAnnounced<T>(opts: { root: string; script: string; args?: string[]; prefix: string; label: string; timeoutMs?: number }): Promise<AnnouncedProcess<T>> {
  const bundled = process.env.SVC_TEST_SCRIPTS ? join(process.env.SVC_TEST_SCRIPTS, basename(opts.script).replace(/\.ts$/, '.js')) : null
  const entry = bundled && existsSync(bundled) ? ['--enable-source-maps', bundled] : ['--import', 'tsx', opts.script]
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [...entry, ...(opts.args ?? [])], {
    cwd: opts.root,
    // A bundle's own path is not the script's: the script knows it runs as the program by this.
    env: { ...process.env, SVC_ANNOUNCED_SCRIPT: basename(opts.script) },
    stdio: ['pipe', 'pipe', 'pipe'],
  })
  const exited = new Promise<number | null>((resolve) => child.on('exit', (code) => resolve(code)))
  const timeoutMs = opts.timeoutMs ?? 120_000
  let output = ''
  child.stderr.on('data', (c: Buffer) => (output += c.toString()))
  const announced = await new Promise<T>((resolve, reject) => {
    let pending = ''
    const timer = setTimeout(() => reject(new Error(`the ${opts.label} did not start within ${timeoutMs / 1000} s:\n${output}`)), timeoutMs)
    child.stdout.on('data', (c: Buffer) => {
      pending += c.toString()
      for (let nl = pending.indexOf('\n'); nl >= 0; nl = pending.indexOf('\n')) {
        const line = pending.slice(0, nl)
        pending = pending.slice(nl + 1)
        if (!line.startsWith(opts.prefix)) {
          output += `${line}\n`
          continue
        }
        clearTimeout(timer)
        resolve(JSON.parse(line.slice(opts.prefix.length)) as T)
      }
    })
    void exited.then((code) => {
      clearTimeout(timer)
      reject(new Error(`the ${opts.label} exited (${code}) before it answered:\n${output}`))
    })
  }).catch((err: unknown) => {
    child.kill('SIGKILL')
    throw err
  })
  return {
    announced,
    async close() {
      if (child.exitCode !== null || child.signalCode !== null) return
      child.kill('SIGTERM')
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000)
      await exited
      clearTimeout(timer)
    },
  }
}
