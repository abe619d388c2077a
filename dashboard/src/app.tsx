import { ErrorBoundary, LocationProvider, Route, Router, useLocation } from 'preact-iso'
import { useEffect, useMemo, useState } from 'preact/hooks'
import { createApi } from './api/client.js'
import { ApiProblem } from './api/problem.js'
import { loadSession, type Membership, type SessionInfo } from './api/session.js'
import { AREAS } from './pages/areas.js'
import NotFound from './pages/not-found.js'
import Overview from './pages/overview.js'
import { Loading, ProblemView } from './ui/components.js'
import { Workspace, type WorkspaceContext } from './ui/workspace.js'

const CHOICE = 'svc.dashboard.workspace'

/** The membership this tab works in: the one chosen before (this tab), else the first live one. */
function initialChoice(memberships: Membership[]): Membership | undefined {
  const saved = sessionStorage.getItem(CHOICE)
  return memberships.find((m) => `${m.workspace_id}:${m.mode}` === saved) ?? memberships.find((m) => m.mode === 'live') ?? memberships[0]
}

export function App() {
  const [session, setSession] = useState<SessionInfo>()
  const [problem, setProblem] = useState<ApiProblem>()
  const [choice, setChoice] = useState<Membership>()
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
  if (!session) return <Loading label="Signing you in…" />
  if (!ctx) return <NoWorkspace session={session} />
  return (
    <LocationProvider>
      <Workspace.Provider value={ctx}>
        <Shell ctx={ctx} />
      </Workspace.Provider>
    </LocationProvider>
  )
}

function NoWorkspace({ session }: { session: SessionInfo }) {
  return (
    <main id="main" class="main">
      <h1>No workspace</h1>
      <p>{session.email} is not an active member of any workspace. Ask an owner to invite you.</p>
      <SignOut csrf={session.csrf_token} />
    </main>
  )
}

function SignOut({ csrf }: { csrf: string }) {
  return (
    <form method="post" action="/logout" class="sign-out">
      <input type="hidden" name="csrf_token" value={csrf} />
      <button type="submit">Sign out</button>
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
        Skip to content
      </a>
      {sandbox && (
        <div class="sandbox-banner" role="note" data-testid="sandbox-banner">
          Sandbox — test data and svc_test_ keys. Nothing here reaches real customers.
        </div>
      )}
      <header class="top">
        <a class="brand" href="/dashboard">
          Conversational Automation
        </a>
        <div class="switcher">
          <label for="workspace-select" class="visually-hidden">
            Workspace
          </label>
          <select id="workspace-select" value={membership.workspace_id} onChange={(e) => ctx.switchTo((e.target as HTMLSelectElement).value, has(membership.mode) ? membership.mode : 'live')}>
            {workspaces.map(([id, name]) => (
              <option value={id}>{name}</option>
            ))}
          </select>
          <div class="mode-toggle" role="group" aria-label="Environment">
            <button type="button" aria-pressed={!sandbox} disabled={!has('live')} onClick={() => ctx.switchTo(membership.workspace_id, 'live')}>
              Live
            </button>
            <button type="button" aria-pressed={sandbox} disabled={!has('test')} onClick={() => ctx.switchTo(membership.workspace_id, 'test')} data-testid="mode-sandbox">
              Sandbox
            </button>
          </div>
        </div>
        <div class="account">
          <span class="email">{session.email}</span>
          <SignOut csrf={session.csrf_token} />
        </div>
      </header>
      <div class="layout">
        <nav class="side" aria-label="Main">
          <ul>
            <li>
              <a href="/dashboard" aria-current={path === '/dashboard' ? 'page' : undefined}>
                Overview
              </a>
            </li>
            {AREAS.map((a) => (
              <li>
                <a href={a.path} aria-current={path === a.path || path.startsWith(`${a.path}/`) ? 'page' : undefined}>
                  {a.label}
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
