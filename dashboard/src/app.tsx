import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { createApi } from './api/client.js'
import { ApiProblem } from './api/problem.js'
import { loadSession, type Membership, type SessionInfo } from './api/session.js'
import { onLocaleChange, locale, t } from './i18n/index.js'
import { AREAS } from './pages/areas.js'
import NotFound from './pages/not-found.js'
import Overview from './pages/overview.js'
import { Loading, ProblemView } from './ui/components.js'
import { Workspace, type WorkspaceContext } from './ui/workspace.js'

const CHOICE = 'svc.dashboard.workspace'

/**
 * The membership this tab works in: the mode the address names (`?mode=sandbox|live`, as the inbox writes
 * its links, so a sandbox link opened in a new tab opens in the sandbox), in the workspace chosen before
 * (this tab) where it can; else the one chosen before, else the first live one.
 */
function initialChoice(memberships: Membership[]): Membership | undefined {
  const saved = sessionStorage.getItem(CHOICE)
  const param = new URLSearchParams(location.search).get('mode')
  const mode = param === 'sandbox' || param === 'test' ? 'test' : param === 'live' ? 'live' : undefined
  const savedWorkspace = saved?.split(':')[0]
  const fromUrl = mode ? (memberships.find((m) => m.mode === mode && m.workspace_id === savedWorkspace) ?? memberships.find((m) => m.mode === mode)) : undefined
  if (fromUrl) sessionStorage.setItem(CHOICE, `${fromUrl.workspace_id}:${fromUrl.mode}`)
  return fromUrl ?? memberships.find((m) => `${m.workspace_id}:${m.mode}` === saved) ?? memberships.find((m) => m.mode === 'live') ?? memberships[0]
}

export function App() {
  const [session, setSession] = useState<SessionInfo>()
  const [problem, setProblem] = useState<ApiProblem>()
  const [choice, setChoice] = useState<Membership>()
  // A language chosen in Settings re-renders everything under the shell (state below it is dropped: it is a rare act).
  const [lang, setLang] = useState(locale())
  useEffect(() => onLocaleChange(setLang), [])
  useEffect(() => {
    loadSession().then(
      (s) => {
        setSession(s)
        setChoice(initialChoice(s.memberships))
      },
      (err) => setProblem(err instanceof ApiProblem ? err : new ApiProblem(0, null, null)),
    )
  }, [])
  // The session's absolute end: go to the sign-in page then rather than fail on the next click.
  useEffect(() => {
    if (!session) return
    const t = setTimeout(() => void loadSession().catch(() => undefined), Math.min(Date.parse(session.expires_at) - Date.now() + 1000, 2 ** 31 - 1))
    return () => clearTimeout(t)
  }, [session])

  const ctx = useMemo<WorkspaceContext | null>(() => {
    if (!session || !choice) return null
    return {
      session,
      membership: choice,
      api: createApi(choice.workspace_id, choice.mode),
      switchTo(workspaceId, mode) {
        const next = session.memberships.find((m) => m.workspace_id === workspaceId && m.mode === mode)
        if (!next) return
        sessionStorage.setItem(CHOICE, `${workspaceId}:${mode}`)
        setChoice(next)
      },
      async refreshSession() {
        const s = await loadSession()
        setSession(s)
        const same = s.memberships.find((m) => m.workspace_id === choice.workspace_id && m.mode === choice.mode)
        setChoice(same ?? initialChoice(s.memberships))
      },
    }
  }, [session, choice])

  if (problem) return <ProblemView problem={problem} onRetry={() => location.reload()} />
  if (!session) return <Loading label={t('shell.signingIn')} />
  if (!ctx) return <NoWorkspace session={session} />
  return (
    <LocationProvider>
      <Workspace.Provider value={ctx}>
        <Shell key={lang} ctx={ctx} />
      </Workspace.Provider>
    </LocationProvider>
  )
}

function NoWorkspace({ session }: { session: SessionInfo }) {
  return (
    <main id="main" class="main">
      <h1>{t('shell.noWorkspace.title')}</h1>
      <p>{t('shell.noWorkspace.text', { email: session.email })}</p>
      <SignOut csrf={session.csrf_token} />
    </main>
  )
}

function SignOut({ csrf }: { csrf: string }) {
  return (
    <form method="post" action="/logout" class="sign-out">
      <input type="hidden" name="csrf_token" value={csrf} />
      <button type="submit">{t('shell.signOut')}</button>
    </form>
  )
}

function Shell({ ctx }: { ctx: WorkspaceContext }) {
  const { session, membership } = ctx
  const { path } = useLocation()
  const workspaces = [...new Map(session.memberships.map((m) => [m.workspace_id, m.workspace_name])).entries()]
  const sandbox = membership.mode === 'test'
  const has = (mode: 'live' | 'test') => session.memberships.some((m) => m.workspace_id === membership.workspace_id && m.mode === mode)
  useEffect(() => {
    document.body.classList.toggle('mode-test', sandbox)
  }, [sandbox])
  return (
    <>
      <a class="skip-link" href="#main">
        {t('shell.skipToContent')}
      </a>
      {sandbox && (
        <div class="sandbox-banner" role="note" data-testid="sandbox-banner">
          {t('shell.sandboxBanner')}
        </div>
      )}
      <header class="top">
        <a class="brand" href="/dashboard">
          {t('shell.brand')}
        </a>
        <div class="switcher">
          <label for="workspace-select" class="visually-hidden">
            {t('shell.workspace')}
          </label>
          <select id="workspace-select" value={membership.workspace_id} onChange={(e) => ctx.switchTo((e.target as HTMLSelectElement).value, has(membership.mode) ? membership.mode : 'live')}>
            {workspaces.map(([id, name]) => (
              <option value={id}>{name}</option>
            ))}
          </select>
          <div class="mode-toggle" role="group" aria-label={t('shell.environment')}>
            <button type="button" aria-pressed={!sandbox} disabled={!has('live')} onClick={() => ctx.switchTo(membership.workspace_id, 'live')}>
              {t('shell.live')}
            </button>
            <button type="button" aria-pressed={sandbox} disabled={!has('test')} onClick={() => ctx.switchTo(membership.workspace_id, 'test')} data-testid="mode-sandbox">
              {t('shell.sandbox')}
            </button>
          </div>
        </div>
        <div class="account">
          <span class="email">{session.email}</span>
          <SignOut csrf={session.csrf_token} />
        </div>
      </header>
      <div class="layout">
        <nav class="side" aria-label={t('shell.mainNav')}>
          <ul>
            <li>
              <a href="/dashboard" aria-current={path === '/dashboard' ? 'page' : undefined}>
                {t('nav.overview')}
              </a>
            </li>
            {AREAS.map((a) => (
              <li>
                <a href={a.path} aria-current={path === a.path || path.startsWith(`${a.path}/`) ? 'page' : undefined}>
                  {t(a.label)}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" class="main" key={`${membership.workspace_id}:${membership.mode}`}>
          <ErrorBoundary>
            <Router>
              <Route path="/dashboard" component={Overview} />
              {AREAS.map((a) => [
                // `/*` needs one more segment in preact-iso: the area's own path is a route of its own (same component, no remount).
                <Route path={a.path} component={a.component} />,
                <Route path={`${a.path}/*`} component={a.component} />,
              ])}
              <Route default component={NotFound} />
            </Router>
          </ErrorBoundary>
        </main>
      </div>
    </>
  )
}
