import { ok } from '../api/client.js'
import { Async, Page } from '../ui/components.js'
import { useResource } from '../ui/hooks.js'
import { t } from '../i18n/index.js'
import { useWorkspace } from '../ui/workspace.js'
import { AREAS } from './areas.js'

/** /dashboard: the workspace at a glance and the way into each area. */
export default function Overview() {
  const { membership } = useWorkspace()
  const ws = useResource((api) => ok(api.client.GET('/workspaces/current')))
  return (
    <Page title={t('overview.title')}>
      <Async loading={ws.loading} error={ws.error} data={ws.data} onRetry={ws.reload}>
        {(w) => <p>{t('overview.summary', { name: w.name, id: w.id, mode: t(membership.mode === 'test' ? 'overview.mode.test' : 'overview.mode.live'), role: t(`role.${membership.role}`) })}</p>}
      </Async>
      <ul class="cards">
        {AREAS.map((a) => (
          <li>
            <a class="card" href={a.path}>
              {t(a.label)}
            </a>
          </li>
        ))}
      </ul>
    </Page>
  )
}
