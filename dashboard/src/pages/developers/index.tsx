import { Route, Router } from 'preact-iso'
import { SubNav, useIsAdmin, type SubNavLink } from '../../ui/sub-nav.js'
import KeysPage from './keys-page.js'
import { toolsLinks, TOOLS_ROUTES } from './tools-routes.js'
import { WEBHOOK_ROUTES } from './webhooks-routes.js'
import { t } from '../../i18n/index.js'

const links = (): SubNavLink[] => [
  { href: '/dashboard/developers/keys', label: t('developers.index.apiKeys'), admin: true },
  { href: '/dashboard/developers/webhooks', label: t('developers.index.webhooks') },
  { href: '/dashboard/developers/deliveries', label: t('developers.index.deliveries') },
  { href: '/dashboard/developers/playground', label: t('developers.index.playground') },
  ...toolsLinks(),
]

/** The developer area: keys, webhooks (endpoints, deliveries, Playground), API logs, usage, OAuth apps, snapshots, sandboxes, Terraform, SDKs. */
export default function DevelopersArea() {
  // Members land on the webhooks: API keys are for owners and admins.
  const admin = useIsAdmin()
  return (
    <>
      <SubNav label={t('developers.index.developers')} links={links()} />
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
