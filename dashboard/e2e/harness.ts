import assert from 'node:assert/strict'
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join, resolve } from 'node:path'
import { after } from 'node:test'
import { fileURLToPath } from 'node:url'
import type { Browser, BrowserContext, Page } from 'playwright-core'
import { startServer, type Server } from './server.js'

/**
 * The dashboard's end-to-end harness: the real app (a real database, every module) listening on 127.0.0.1
 * with its job runner started as the server's is, in a process of its own (./server.ts), the built dashboard,
 * and Debian's Chromium driven by playwright-core. Each test file gets its own server (fresh workspaces) and its own
 * browser contexts; the browser itself is one per test process, shared by the files the runner groups into it
 * (scripts/test.mjs): launching Chromium and loading playwright-core cost ~3 s of CPU each time.
 *
 * Browser tests run on SQLite only: the dashboard adds no SQL of its own (the API it calls is tested on
 * both engines), and a browser per file and engine would double the suite's slowest part. Its server side
 * (session tokens) is tested on both engines in src/modules/dashboard.
 */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ENGINE = process.env.TEST_DB ?? 'sqlite'
export const skip: string | false = !existsSync(CHROMIUM)
  ? `${CHROMIUM} is missing: install Debian's chromium (apt-get install -y chromium) to run the dashboard's browser tests`
  : ENGINE !== 'sqlite'
    ? 'the dashboard browser tests run on SQLite (its API is tested on both engines)'
    : false

const HERE = dirname(fileURLToPath(import.meta.url))
export const DASHBOARD_DIR = resolve(HERE, '..', 'dist')
/**
 * Screenshots, taken only when asked (each is a full-page render and PNG encoding, ~60 per suite, CPU the suite's
 * 2 cores spent on pictures nobody read): docs/dashboard/ when DASHBOARD_SCREENSHOTS=docs (to refresh the docs'
 * pictures), .tmp/screenshots/ for any other value.
 */
const SHOTS = !process.env.DASHBOARD_SCREENSHOTS
  ? null
  : process.env.DASHBOARD_SCREENSHOTS === 'docs'
    ? resolve(HERE, '..', '..', 'docs', 'dashboard')
    : resolve(HERE, '..', '..', '.tmp', 'screenshots')
export const OWNER_EMAIL = 'owner@acme.example'
export const PASSWORD = 'dashboard password 123'

export interface Dashboard {
  /** The server, over HTTP (./server.ts). */
  h: Server
  /** http://127.0.0.1:<port> */
  url: string
  /** The test process's browser (see `processBrowser`), shared with the other files in the process: never close it. */
  browser: Browser
  /** A new browser context (its own cookies) and page, with problems collected (see `clean`). */
  open(opts?: { viewport?: { width: number; height: number }; locale?: string; colorScheme?: 'light' | 'dark' }): Promise<Page>
  /** Signs in through the real /login page and lands on `path` (default /dashboard). */
  signIn(page: Page, path?: string, email?: string): Promise<void>
  /** Fails on any CSP violation, uncaught page error or console error seen on `page` so far. */
  clean(page: Page): void
  close(): Promise<void>
}

async function ensureBuilt(): Promise<void> {
  if (existsSync(join(DASHBOARD_DIR, 'index.html'))) return
  const { buildDashboard } = await import('../build.mjs')
  await buildDashboard()
}

let launched: Promise<Browser> | null = null

/**
 * The test process's Chromium: launched by the first `startDashboard`, then shared by the files the process runs one
 * after another (each opens and closes its own contexts: cookies, storage and permissions are a context's). One that
 * failed to launch, crashed or was closed is launched again for the next file.
 */
async function processBrowser(): Promise<Browser> {
  const running = await launched?.catch(() => null)
  if (running?.isConnected()) return running
  launched = import('playwright-core').then(({ chromium }) => chromium.launch({ executablePath: CHROMIUM, args: ['--no-sandbox'] }))
  return launched
}

// Closed when the process's tests end: a hook on the root test, registered once, as the module loads (one registered
// inside a file's `before` would belong to that file's suite). playwright-core kills it too if the process exits first.
after(() => launched?.then((b) => b.close()).catch(() => undefined))

/** `chat`: the app talks to an imitation OpenAI-compatible engine that answers `text` (scripts/e2e-server.ts). */
export async function startDashboard(opts: { env?: Record<string, string>; chat?: { text: string; chunkDelayMs?: number } } = {}): Promise<Dashboard> {
  await ensureBuilt()
  // The server and (for the process's first file) Chromium start side by side.
  const [started, browserStarted] = await Promise.allSettled([startServer({ env: { DASHBOARD_DIR, ...opts.env }, password: PASSWORD, chat: opts.chat }), processBrowser()])
  if (started.status === 'rejected') throw started.reason
  if (browserStarted.status === 'rejected') {
    await started.value.close()
    throw browserStarted.reason
  }
  const h = started.value
  const browser = browserStarted.value
  const url = h.url
  const problems = new WeakMap<Page, string[]>()
  const contexts: BrowserContext[] = []
  return {
    h,
    url,
    browser,
    async open(o = {}) {
      const context = await browser.newContext({ baseURL: url, viewport: o.viewport ?? { width: 1280, height: 860 }, locale: o.locale, colorScheme: o.colorScheme })
      contexts.push(context)
      const page = await context.newPage()
      const seen: string[] = []
      problems.set(page, seen)
      page.on('console', (m) => {
        const text = m.text()
        if (/Content Security Policy|Refused to/i.test(text)) seen.push(`CSP: ${text}`)
        // A failed API answer is logged by the browser as a resource error; pages show those themselves.
        else if (m.type() === 'error' && !/Failed to load resource/.test(text)) seen.push(`console: ${text}`)
      })
      page.on('pageerror', (err) => seen.push(`page error: ${err.message}`))
      return page
    },
    async signIn(page, path = '/dashboard', email = OWNER_EMAIL) {
      await page.goto(path)
      await page.waitForURL(/\/login\?next=/)
      // By id: the page speaks the browser's language (Anmelden for a de-DE context).
      await page.locator('#email').fill(email)
      await page.locator('#password').fill(PASSWORD)
      await page.locator('form[action="/login"] button[type=submit]').click()
      await page.waitForURL((u) => u.pathname.startsWith('/dashboard'))
      await page.locator('header.top').waitFor()
    },
    clean(page) {
      assert.deepEqual(problems.get(page) ?? [], [], 'the page reported problems')
    },
    async close() {
      // This file's contexts only: the browser stays for the process's next file.
      for (const c of contexts) await c.close().catch(() => undefined)
      await h.close()
    },
  }
}

const require = createRequire(import.meta.url)
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/**
 * axe-core on the page as it is now (WCAG 2.1 A and AA rules and best practices): fails on any serious or
 * critical violation, naming the rule and the elements. Injected through the DevTools protocol
 * (page.evaluate), which the page's CSP does not govern, so the app's policy stays as strict as served; once per
 * document (a second check of the same page, a dialog opened, runs the copy already there: the 650 kB script, ~0.3 s
 * to send and compile on the loaded 2 cores, goes again only after a navigation). Every rule runs on every element
 * either way; only violations are read, so only they are reported in full (`resultTypes`: axe skips building the
 * report of each element that passed; the same violations, element for element).
 */
export async function checkA11y(page: Page, label: string): Promise<void> {
  if (!(await page.evaluate(`typeof axe === 'object' && typeof axe.run === 'function'`))) await page.evaluate(`${AXE_SOURCE}\n;undefined`)
  const result = (await page.evaluate(`axe.run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] })`)) as {
    violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[]
  }
  const serious = result.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')
  assert.deepEqual(
    serious.map(
      (v) =>
        `${v.impact} ${v.id}: ${v.help} — ${v.nodes
          .map((n) => n.target.join(' '))
          .slice(0, 5)
          .join(', ')}`,
    ),
    [],
    `accessibility violations on ${label}`,
  )
}

/** A full-page screenshot named `name`.png, when screenshots are asked for (see SHOTS). */
export async function screenshot(page: Page, name: string): Promise<void> {
  if (!SHOTS) return
  mkdirSync(SHOTS, { recursive: true })
  await page.screenshot({ path: join(SHOTS, `${name}.png`), fullPage: true })
}

/** At a phone's width the page must not scroll sideways (tables scroll inside their own box). */
export async function assertFitsPhone(page: Page, label: string): Promise<void> {
  await page.setViewportSize({ width: 375, height: 800 })
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)
  assert.ok(overflow <= 1, `${label} is ${overflow}px wider than a 375px phone screen`)
  await page.setViewportSize({ width: 1280, height: 860 })
}
