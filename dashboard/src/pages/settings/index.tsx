import { Route, Router, useLocation } from 'preact-iso'
import { useEffect } from 'preact/hooks'
import { Loading } from '../../ui/components.js'
import { SubNav } from '../../ui/sub-nav.js'
import Integrations from './integrations.page.js'
import Members from './members.page.js'
import WorkspaceSettings from './workspace.page.js'
import './settings.css'

const WORKSPACE = '/dashboard/settings/workspace'

/** /dashboard/settings: the workspace itself, its members, and the integrations it is configured with. */
export default function SettingsArea() {
  return (
    <>
      <SubNav
        label="Settings"
        links={[
          { href: WORKSPACE, label: 'Workspace' },
          { href: '/dashboard/settings/members', label: 'Members' },
          { href: '/dashboard/settings/integrations', label: 'Integrations' },
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
