import type { ComponentType } from 'preact'
import { ApiLogDetail } from './logs-detail.js'
import { ApiLogsPage } from './logs-list.js'
import { OAuthAppDetail } from './oauth-apps-detail.js'
import { OAuthAppsPage } from './oauth-apps-list.js'
import { OAuthAuthorizationsPage } from './oauth-authorizations.js'
import { SandboxesPage } from './sandboxes-page.js'
import { SdkGenerationsPage } from './sdk-generations.js'
import { SnapshotDetail } from './snapshots-detail.js'
import { SnapshotsPage } from './snapshots-list.js'
import { TerraformPage } from './terraform-page.js'
import { UsagePage } from './usage-page.js'
import { t } from '../../i18n/index.js'

/** Developer tools (API logs, usage, OAuth apps and the apps this workspace authorized, OpenAPI snapshots, sandboxes, Terraform, SDKs), relative to /dashboard/developers. */
export const TOOLS_ROUTES: { path: string; component: ComponentType }[] = [
  { path: '/logs', component: ApiLogsPage },
  { path: '/logs/:requestId', component: ApiLogDetail },
  { path: '/usage', component: UsagePage },
  { path: '/oauth-apps', component: OAuthAppsPage },
  { path: '/oauth-apps/:id', component: OAuthAppDetail },
  { path: '/authorized-apps', component: OAuthAuthorizationsPage },
  { path: '/snapshots', component: SnapshotsPage },
  { path: '/snapshots/:id', component: SnapshotDetail },
  { path: '/sandboxes', component: SandboxesPage },
  { path: '/terraform', component: TerraformPage },
  { path: '/sdks', component: SdkGenerationsPage },
]

/** The sub-navigation links of these pages. */
export const toolsLinks = () => [
  { href: '/dashboard/developers/logs', label: t('developers.tools.apiLogs'), admin: true },
  { href: '/dashboard/developers/usage', label: t('developers.tools.usage') },
  { href: '/dashboard/developers/oauth-apps', label: t('developers.tools.oauthApps') },
  { href: '/dashboard/developers/authorized-apps', label: t('developers.tools.authorizedApps') },
  { href: '/dashboard/developers/snapshots', label: t('developers.tools.snapshots') },
  { href: '/dashboard/developers/sandboxes', label: t('developers.tools.sandboxes') },
  { href: '/dashboard/developers/terraform', label: t('developers.tools.terraform') },
  { href: '/dashboard/developers/sdks', label: t('developers.tools.sdks') },
]
