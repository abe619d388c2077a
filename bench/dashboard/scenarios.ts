/**
 * Dashboard scenarios of `npm run bench` (issue 19: "the bundle size and the time to interactive on the
 * inbox page are reported in docs/performance.md"). Builds the dashboard, reports what a first visit
 * downloads (the entry and the chunks it imports at once, the stylesheets) and what the inbox adds, raw
 * and gzip-compressed; then starts the built service on a fresh SQLite database with 200 conversations,
 * signs a member in once in Debian's Chromium and opens /dashboard/inbox in a fresh browser context (empty
 * cache) several times: unthrottled, and with 4× CPU slowdown and a "fast 3G" network (1.6 Mbit/s down,
 * 150 ms round trip), as Lighthouse's mobile profile does. Writes the `dashboard-bench` block of
 * docs/performance.md on a full run.
 *
 * Time to interactive, as measured here: from navigation start until the conversation list is on screen
 * (its first link rendered) and the main thread has had no long task (> 50 ms) for the next 500 ms —
 * Lighthouse's definition with a shorter quiet window, since the page makes no further requests. First
 * contentful paint and the end of the last long task are reported beside it.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { cpus, totalmem } from 'node:os'
import { join } from 'node:path'
import { gzipSync } from 'node:zlib'
import { buildDashboard, type BuildOutput } from '../../dashboard/build.mjs'
import { createTestDatabase } from '../../test/helpers.js'
import { freePort, svc } from '../../test/spawn.js'
import { progress, ROOT, startProcess, stop } from '../lib.js'
import { serviceEnv } from '../service.js'

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const RUNS = Number(process.env.BENCH_DASHBOARD_RUNS ?? 5)
const ASSETS = join(ROOT, 'dashboard', 'dist', 'assets')
const kib = (n: number) => `${(n / 1024).toFixed(1)} KiB`

interface Sizes {
  rows: { what: string; files: number; raw: number; gzip: number }[]
}

function sizes(outputs: BuildOutput[]): Sizes {
  const byFile = new Map(outputs.map((o) => [o.file, o]))
  const closure = (start: string[]): string[] => {
    const seen = new Set<string>()
    const walk = (f: string) => {
      if (seen.has(f)) return
      seen.add(f)
      for (const i of byFile.get(f)?.imports ?? []) walk(i)
    }
    start.forEach(walk)
    return [...seen]
  }
  const measure = (what: string, files: string[]) => {
    const bodies = files.map((f) => readFileSync(join(ASSETS, f)))
    return { what, files: files.length, raw: bodies.reduce((n, b) => n + b.length, 0), gzip: bodies.reduce((n, b) => n + gzipSync(b, { level: 9 }).length, 0) }
  }
  const js = outputs.filter((o) => o.file.endsWith('.js'))
  const css = outputs.filter((o) => o.file.endsWith('.css')).map((o) => o.file)
  const main = js.find((o) => o.entry)!
  const initial = closure([main.file])
  const area = (name: string) => js.find((o) => o.source?.includes(`pages/${name}/index.tsx`))
  const inbox = area('inbox')
  const inboxExtra = inbox ? closure([inbox.file]).filter((f) => !initial.includes(f)) : []
  const developers = area('developers')
  const rows = [measure('first visit: JavaScript (entry and its static imports)', initial), measure('first visit: stylesheets', css), measure('the inbox area (loaded when opened)', inboxExtra)]
  if (developers)
    rows.push(
      measure(
        'the developers area (with uPlot)',
        closure([developers.file]).filter((f) => !initial.includes(f)),
      ),
    )
  rows.push(
    measure(
      'all JavaScript of the app',
      js.map((o) => o.file),
    ),
  )
  return { rows }
}

interface Timing {
  fcp: number
  listed: number
  lastLongTask: number
  tti: number
}

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b)
  return s.length ? s[Math.floor((s.length - 1) / 2)] : 0
}

async function timings(url: string, email: string, password: string): Promise<{ profile: string; runs: Timing[] }[]> {
  const { chromium } = await import('playwright-core')
  const browser = await chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] })
  try {
    const signIn = await browser.newContext({ baseURL: url })
    const page = await signIn.newPage()
    await page.goto('/dashboard/inbox')
    await page.getByLabel('Email').fill(email)
    await page.getByLabel('Password').fill(password)
    await page.getByRole('button', { name: /sign in/i }).click()
    await page.waitForURL(/\/dashboard\/inbox/)
    const state = await signIn.storageState()
    await signIn.close()
    const profiles = [
      { profile: 'desktop, unthrottled', cpu: 1, network: null },
      {
        profile: 'mobile: 4× CPU slowdown, fast 3G (1.6 Mbit/s, 150 ms RTT)',
        cpu: 4,
        network: { offline: false, latency: 150, downloadThroughput: (1.6 * 1024 * 1024) / 8, uploadThroughput: (750 * 1024) / 8 },
      },
    ]
    const out = []
    for (const p of profiles) {
      const runs: Timing[] = []
      for (let i = 0; i < RUNS; i++) {
        const context = await browser.newContext({ baseURL: url, storageState: state })
        const tab = await context.newPage()
        const cdp = await context.newCDPSession(tab)
        await cdp.send('Network.enable')
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true })
        if (p.network) await cdp.send('Network.emulateNetworkConditions', p.network)
        if (p.cpu > 1) await cdp.send('Emulation.setCPUThrottlingRate', { rate: p.cpu })
        // Recorded in the page from its first moment (injected through DevTools: the page's CSP does not apply).
        await tab.addInitScript(() => {
          const w = window as unknown as { __bench: { longTasks: number[]; listed: number } }
          w.__bench = { longTasks: [], listed: 0 }
          new PerformanceObserver((l) => l.getEntries().forEach((e) => w.__bench.longTasks.push(e.startTime + e.duration))).observe({ type: 'longtask', buffered: true })
          new MutationObserver(() => {
            if (!w.__bench.listed && document.querySelector('a[href^="/dashboard/inbox/conv_"]')) w.__bench.listed = performance.now()
          }).observe(document, { childList: true, subtree: true })
        })
        await tab.goto('/dashboard/inbox')
        await tab.locator('a[href^="/dashboard/inbox/conv_"]').first().waitFor()
        await tab.waitForTimeout(600 * p.cpu)
        const t = (await tab.evaluate(() => {
          const w = window as unknown as { __bench: { longTasks: number[]; listed: number } }
          const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? 0
          return { fcp, listed: w.__bench.listed, longTasks: w.__bench.longTasks }
        })) as { fcp: number; listed: number; longTasks: number[] }
        const lastLongTask = Math.max(0, ...t.longTasks)
        runs.push({ fcp: t.fcp, listed: t.listed, lastLongTask, tti: Math.max(t.listed, lastLongTask) })
        await context.close()
      }
      out.push({ profile: p.profile, runs })
      progress(`dashboard: ${p.profile}: TTI median ${median(runs.map((r) => r.tti)).toFixed(0)} ms`)
    }
    return out
  } finally {
    await browser.close()
  }
}

export async function dashboardBench(wanted: (s: string) => boolean, full: boolean): Promise<void> {
  if (!wanted('dashboard')) return
  if (!existsSync(CHROMIUM)) {
    progress(`dashboard: skipped (${CHROMIUM} is missing)`)
    return
  }
  await buildDashboard()
  const built = JSON.parse(readFileSync(join(ROOT, 'dashboard', 'dist', 'build.json'), 'utf8')) as { outputs: BuildOutput[] }
  const size = sizes(built.outputs)

  const db = await createTestDatabase('sqlite')
  const ws = JSON.parse(await svc(['workspaces', 'create', '--name', 'Bench', '--owner-email', 'bench@example.com', '--json'], db.env))
  const key = JSON.parse(await svc(['keys', 'create', '--scopes', 'admin', '--workspace', ws.id, '--json'], db.env)).key as string
  const password = 'bench password 123'
  const set = spawnSync(process.execPath, ['--import', 'tsx', 'src/cli.ts', 'members', 'set-password', '--email', 'bench@example.com'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'silent', ...db.env },
    input: `${password}\n`,
    encoding: 'utf8',
  })
  if (set.status !== 0) throw new Error(`set-password: ${set.stderr}`)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = await startProcess(['dist/main.js'], { ...db.env, ...serviceEnv(port), PUBLIC_URL: url }, `${url}/livez`)
  try {
    for (let i = 0; i < 200; i++) {
      const r = await fetch(`${url}/v2/inbox/conversations`, {
        method: 'POST',
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ channel: 'email', contact: { name: `Customer ${i}`, email: `c${i}@example.com` }, message: { content: `Question number ${i} about my order` } }),
      })
      if (r.status !== 201) throw new Error(`seeding: ${r.status} ${await r.text()}`)
    }
    const results = await timings(url, 'bench@example.com', password)
    const machine = `${cpus().length} × ${cpus()[0]?.model ?? 'cpu'}, ${Math.round(totalmem() / 2 ** 30)} GiB, Node ${process.version}, Chromium (Debian), ${new Date().toISOString()}`
    const sizeTable = ['| what | files | raw | gzip |', '|---|---:|---:|---:|', ...size.rows.map((r) => `| ${r.what} | ${r.files} | ${kib(r.raw)} | ${kib(r.gzip)} |`)].join('\n')
    const ms = (xs: number[]) => `${median(xs).toFixed(0)} (${Math.min(...xs).toFixed(0)}–${Math.max(...xs).toFixed(0)})`
    const ttiTable = [
      `| profile | first contentful paint ms | conversation list shown ms | last long task ends ms | time to interactive ms |`,
      '|---|---:|---:|---:|---:|',
      ...results.map((r) => `| ${r.profile} | ${ms(r.runs.map((x) => x.fcp))} | ${ms(r.runs.map((x) => x.listed))} | ${ms(r.runs.map((x) => x.lastLongTask))} | **${ms(r.runs.map((x) => x.tti))}** |`),
    ].join('\n')
    const block = `Latest run: ${machine}. The built service (\`dist/main.js\`, SQLite, 200 conversations) and the built dashboard; /dashboard/inbox opened ${RUNS} times per profile in a fresh browser context (empty cache, signed in); median (min–max).\n\n${sizeTable}\n\n${ttiTable}`
    process.stdout.write(`\n${block}\n`)
    // Published on a full run, or when run alone (BENCH_ONLY=dashboard).
    if (full || process.env.BENCH_ONLY === 'dashboard') {
      const docPath = join(ROOT, 'docs', 'performance.md')
      let doc = readFileSync(docPath, 'utf8')
      const wrapped = `<!-- dashboard-bench:start -->\n${block}\n<!-- dashboard-bench:end -->`
      const re = /<!-- dashboard-bench:start -->[\s\S]*<!-- dashboard-bench:end -->/
      doc = re.test(doc) ? doc.replace(re, wrapped) : `${doc}\n${wrapped}\n`
      writeFileSync(docPath, doc)
    }
  } finally {
    await stop(server)
    await db.drop()
  }
}
