// Shared by the bench files: processes (pinned to the server cores when the machine has spare ones),
// load with latency percentiles, and a small API client.
import autocannon from 'autocannon'
import { execFileSync, spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, writeFileSync } from 'node:fs'
import { cpus } from 'node:os'
import { basename, join } from 'node:path'

export const DURATION = Number(process.env.BENCH_DURATION ?? 8)
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 50)
export const ROOT = new URL('..', import.meta.url).pathname

function hasTaskset(): boolean {
  try {
    execFileSync('taskset', ['-p', String(process.pid)], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

/**
 * On more than 2 cores, servers get cores 0–1 and this process (autocannon runs in it) the rest, so the
 * load generator does not steal the server's CPU; on 2 cores they share. PostgreSQL is not ours to pin.
 */
export const pinning = (() => {
  const n = cpus().length
  if (n <= 2 || !hasTaskset()) return { server: null, label: `shared ${n} cores` }
  const load = `2-${n - 1}`
  execFileSync('taskset', ['-a', '-cp', load, String(process.pid)], { stdio: 'ignore' })
  return { server: '0,1', label: `pinned: server 0-1, load ${load}` }
})()

const START = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { scripts: { start: string } }).scripts.start

/** The node flags of `npm start` (package.json), the heap limits among them: the bench measures what is deployed. */
// BENCH_NODE_FLAGS (space-separated) replaces them for an experiment, e.g. another heap ceiling.
export const START_FLAGS: string[] = (process.env.BENCH_NODE_FLAGS ?? START).split(/\s+/).filter((w) => w.startsWith('--'))

/** The environment `npm start` sets before `node` (`MALLOC_ARENA_MAX=2 node …`); the bench's own environment wins. */
export const START_ENV: Record<string, string> = Object.fromEntries(
  (/^((?:[A-Z_][A-Z0-9_]*=\S*\s+)*)node\b/.exec(START)?.[1] ?? '')
    .split(/\s+/)
    .filter(Boolean)
    .map((w) => [w.slice(0, w.indexOf('=')), w.slice(w.indexOf('=') + 1)]),
)

/**
 * BENCH_PREBUILT: a folder holding the bench's TypeScript entries bundled beforehand (`bench/x.ts` → `<folder>/x.mjs`),
 * run with plain node instead of through tsx: a machine with node but without the sources' packages (no tsx there).
 */
const PREBUILT = process.env.BENCH_PREBUILT

/** A node process as `npm start` runs one (compiled JavaScript, its flags), or a TypeScript file through tsx (or prebuilt). */
export function spawnNode(args: string[], env: Record<string, string>, stdio: 'pipe' | 'ignore' = 'pipe'): ChildProcess {
  const built = args[0].endsWith('.js')
  const script = built ? [...START_FLAGS, ...args] : PREBUILT ? [join(PREBUILT, basename(args[0], '.ts') + '.mjs'), ...args.slice(1)] : ['--import', 'tsx', ...args]
  const node = [process.execPath, ...script]
  const [cmd, ...argv] = pinning.server ? ['taskset', '-c', pinning.server, ...node] : node
  // taskset execs the command: the child's pid is the server's (peak RSS reads /proc/<pid>).
  return spawn(cmd, argv, { cwd: ROOT, env: { ...(built ? START_ENV : {}), ...process.env, ...env }, stdio: ['ignore', stdio, stdio] })
}

export async function startProcess(args: string[], env: Record<string, string>, readyUrl: string): Promise<ChildProcess> {
  const child = spawnNode(args, env)
  let out = ''
  child.stdout!.on('data', (d) => (out += d))
  child.stderr!.on('data', (d) => (out += d))
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null || child.signalCode !== null) throw new Error(`process exited (${child.exitCode ?? child.signalCode}): ${out}`)
    try {
      if ((await fetch(readyUrl)).status < 500) return child
    } catch {
      /* not yet */
    }
    await new Promise((r) => setTimeout(r, 100))
  }
  throw new Error(`process did not start: ${out}`)
}

export async function stop(child: ChildProcess): Promise<void> {
  // Killed by a signal, a process keeps exitCode null: its 'exit' has been and will not come again.
  if (child.exitCode !== null || child.signalCode !== null) return
  const done = new Promise((r) => child.on('exit', r))
  child.kill('SIGTERM')
  await done
}

export function peakRssMb(pid: number): number {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))
    return m ? Math.round(Number(m[1]) / 1024) : 0
  } catch {
    return 0
  }
}

export interface LoadResult {
  rps: number
  p50: number
  p95: number
  p99: number
  errors: number
  non2xx: number
  /** Every response's latency, sorted: results of several runs can be combined. */
  times: number[]
  /** Responses by HTTP status (load() only): what the non-2xx were. */
  statuses?: Record<number, number>
}

function summary(times: number[], rps: number, errors: number, non2xx: number): LoadResult {
  const pct = (p: number) => Math.round((times[Math.min(times.length - 1, Math.floor((p / 100) * times.length))] ?? 0) * 10) / 10
  return { rps: Math.round(rps), p50: pct(50), p95: pct(95), p99: pct(99), errors, non2xx, times }
}

/** autocannon, with p95 from every response's latency (autocannon's histogram has p90 and p97.5, not p95). */
export async function load(opts: autocannon.Options): Promise<LoadResult> {
  const times: number[] = []
  const statuses: Record<number, number> = {}
  const r = await new Promise<autocannon.Result>((resolve, reject) => {
    const instance = autocannon({ connections: CONNECTIONS, duration: DURATION, ...opts }, (err, result) => (err ? reject(err) : resolve(result)))
    instance.on('response', (_client, status, _bytes, ms) => {
      times.push(ms)
      statuses[status] = (statuses[status] ?? 0) + 1
    })
  })
  return {
    ...summary(
      times.sort((a, b) => a - b),
      r.requests.average,
      r.errors + r.timeouts,
      r.non2xx,
    ),
    statuses,
  }
}

/** Runs of one scenario taken in turns with another's, as one result. */
export function combine(runs: LoadResult[]): LoadResult {
  const sum = (f: (r: LoadResult) => number) => runs.reduce((n, r) => n + f(r), 0)
  return summary(
    runs.flatMap((r) => r.times).sort((a, b) => a - b),
    sum((r) => r.rps) / runs.length,
    sum((r) => r.errors),
    sum((r) => r.non2xx),
  )
}

/** Progress on stderr: a full run takes a while. */
export const progress = (line: string) => void process.stderr.write(`${line}\n`)

export function note(r: LoadResult): string | undefined {
  return r.errors || r.non2xx ? `${r.errors} errors, ${r.non2xx} non-2xx` : undefined
}

export type Api = (method: string, path: string, body?: unknown, key?: string) => Promise<any>

export function apiClient(url: string, key: string): Api {
  return async (method, path, body, k = key) => {
    const headers: Record<string, string> = { authorization: `Bearer ${k}` }
    if (body !== undefined) headers['content-type'] = 'application/json'
    const r = await fetch(url + path, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) })
    const text = await r.text()
    if (r.status >= 300) throw new Error(`${method} ${path} → ${r.status} ${text}`)
    return text ? JSON.parse(text) : null
  }
}

/** The inbox paths' data: `n` conversations with a first message each; their ids. */
export async function seedConversations(api: Api, n = 60): Promise<string[]> {
  const ids: string[] = []
  for (let i = 0; i < n; i++) {
    const c = await api('POST', '/v2/inbox/conversations', {
      channel: 'chat',
      contact: { name: `Contact ${i}`, email: `c${i}@example.com` },
      message: { content: 'Hello, what does the pro plan cost?' },
    })
    ids.push(c.id)
  }
  return ids
}

/**
 * sendMessage load: a fresh Idempotency-Key per request (every request is a new message), spread over the
 * seeded conversations as an inbox's traffic is: 50 writers on one conversation would measure its row lock.
 */
export function sendMessageLoad(url: string, headers: Record<string, string>, conversations: string[], keyPrefix: string): autocannon.Options {
  let n = 0
  return {
    url: `${url}/v2/inbox/conversations/${conversations[0]}/messages`,
    method: 'POST',
    headers,
    body: JSON.stringify({ content: 'Thanks, the pro plan is 49 EUR per month.' }),
    requests: [
      {
        setupRequest: (req: any) => ({
          ...req,
          path: `/v2/inbox/conversations/${conversations[n % conversations.length]}/messages`,
          headers: { ...headers, 'idempotency-key': `${keyPrefix}-${process.pid}-${n++}` },
        }),
      },
    ],
  }
}

/** The block between `<!-- name:start -->` and `<!-- name:end -->` of docs/performance.md (appended the first time). */
export function putPerformanceBlock(name: string, content: string): void {
  const path = new URL('../docs/performance.md', import.meta.url)
  const doc = readFileSync(path, 'utf8')
  const block = `<!-- ${name}:start -->\n${content}\n<!-- ${name}:end -->`
  const re = new RegExp(`<!-- ${name}:start -->[\\s\\S]*<!-- ${name}:end -->`)
  writeFileSync(path, re.test(doc) ? doc.replace(re, () => block) : `${doc.trimEnd()}\n\n${block}\n`)
}
