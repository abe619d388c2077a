import { ok } from '../api/client.js'
import { Async, Page } from '../ui/components.js'
import { useResource } from '../ui/hooks.js'
import { useWorkspace } from '../ui/workspace.js'
import { AREAS } from './areas.js'

/** /dashboard: the workspace at a glance and the way into each area. */
export default function Overview() {
  const { membership } = useWorkspace()
  const ws = useResource((api) => ok(api.client.GET('/workspaces/current')))
  return (
    <Page title="Overview">
      <Async loading={ws.loading} error={ws.error} data={ws.data} onRetry={ws.reload}>
        {(w) => (
          <p>
            Workspace <strong>{w.name}</strong> (<code>{w.id}</code>), {membership.mode === 'test' ? 'sandbox' : 'live'} mode, your role: {membership.role}.
          </p>
        )}
      </Async>
      <ul class="cards">
        {AREAS.map((a) => (
          <li>
            <a class="card" href={a.path}>
              {a.label}
            </a>
          </li>
        ))}
      </ul>
    </Page>
  )
}
