import { Route, Router, useLocation } from 'preact-iso'
import { useEffect } from 'preact/hooks'
import { Loading } from '../../ui/components.js'
import { SubNav } from '../../ui/sub-nav.js'
import Integrations from './integrations.page.js'
import Members from './members.page.js'
import WorkspaceSettings from './workspace.page.js'
import './settings.css'
import { t } from '../../i18n/index.js'

const WORKSPACE = '/dashboard/settings/workspace'

/** /dashboard/settings: the workspace itself, its members, and the integrations it is configured with. */
export default function SettingsArea() {
  return (
    <>
      <SubNav
        label={t('settings.index.settings')}
        links={[
          { href: WORKSPACE, label: t('settings.index.workspace') },
          { href: '/dashboard/settings/members', label: t('settings.index.members') },
          { href: '/dashboard/settings/integrations', label: t('settings.index.integrations') },
        ]}
      />
      <Router>
        <Route path="/" component={ToWorkspace} />
        <Route path="/workspace" component={WorkspaceSettings} />
        <Route path="/members" component={Members} />
        <Route path="/integrations" component={Integrations} />
      </Router>
    </>
  )
}

function ToWorkspace() {
  const { route } = useLocation()
  useEffect(() => route(WORKSPACE, true), [])
  return <Loading />
}
