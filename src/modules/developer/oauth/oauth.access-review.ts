import type { Kernel } from '../../../kernel/kernel.js'
import type { AccessReviewPart } from '../../../kernel/module.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'

const count = (n: number) => n.toLocaleString('en-US')

/**
 * This part's share of the access-review evidence report (the module's `accessReview` hook): the OAuth apps
 * the tenant owns and every authorization its members gave, worded as the report prints them.
 */
export async function oauthAccessReview(_kernel: Kernel, services: Services, tenant: Tenant, memberEmail: (memberId: string) => string): Promise<AccessReviewPart> {
  const { apps, grants } = await services.oauth.accessReview(tenant)
  const status = (g: (typeof grants)[number]) => (g.revoked_at ? `revoked ${g.revoked_at.slice(0, 10)}` : g.live_until ? `active until ${g.live_until.slice(0, 16).replace('T', ' ')}` : 'expired')
  return {
    summary: [
      { label: 'OAuth apps owned', value: count(apps.length) },
      { label: 'OAuth authorizations active', value: count(grants.filter((g) => !g.revoked_at && g.live_until).length) },
    ],
    sections: [
      {
        heading: 'OAuth apps owned',
        text: 'Apps this workspace publishes; other workspaces may authorize them.',
        table: { columns: ['App', 'Client id', 'Type', 'Allowed scopes', 'Created'], rows: apps.map((a) => [a.name, a.client_id, a.type, a.allowed_scopes, a.created_at.slice(0, 10)]) },
      },
      {
        heading: 'OAuth authorizations',
        text: 'Apps a member let act on this workspace, with the scopes granted. Active while one of its tokens is usable; revoking the authorization ends them all.',
        table: {
          columns: ['Authorization', 'App', 'Authorized by', 'Scopes', 'Granted', 'Status'],
          rows: grants.map((g) => [g.id, g.app_name ? `${g.app_name} (${g.client_id})` : g.client_id, memberEmail(g.member_id), g.scopes, g.created_at.slice(0, 10), status(g)]),
        },
      },
    ],
  }
}
