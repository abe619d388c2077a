import { Route, Router } from 'preact-iso'
import { SubNav, useIsAdmin, type SubNavLink } from '../../ui/sub-nav.js'
import KeysPage from './keys-page.js'
import { TOOLS_LINKS, TOOLS_ROUTES } from './tools-routes.js'
import { WEBHOOK_ROUTES } from './webhooks-routes.js'

const LINKS: SubNavLink[] = [
  { href: '/dashboard/developers/keys', label: 'API keys', admin: true },
  { href: '/dashboard/developers/webhooks', label: 'Webhooks' },
  { href: '/dashboard/developers/deliveries', label: 'Deliveries' },
  { href: '/dashboard/developers/playground', label: 'Playground' },
  ...TOOLS_LINKS,
]

/** The developer area: keys, webhooks (endpoints, deliveries, Playground), API logs, usage, OAuth apps, snapshots, sandboxes, Terraform, SDKs. */
export default function DevelopersArea() {
  // Members land on the webhooks: API keys are for owners and admins.
  const admin = useIsAdmin()
  return (
    <>
      <SubNav label="Developers" links={LINKS} />
      <Router>
        <Route path="/" component={admin ? KeysPage : WEBHOOK_ROUTES[0].component} />
        <Route path="/keys" component={KeysPage} />
        {WEBHOOK_ROUTES.map((r) => (
          <Route path={r.path} component={r.component} />
        ))}
        {TOOLS_ROUTES.map((r) => (
          <Route path={r.path} component={r.component} />
        ))}
      </Router>
    </>
  )
}
