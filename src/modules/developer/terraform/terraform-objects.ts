import type { PageResult } from '../../../kernel/http/pagination.js'
import type { Services } from '../../../kernel/services.js'
import type { Principal } from '../../../kernel/tenant.js'

type Json = Record<string, unknown>

/** Objects exported per resource type at most; the HCL says when a type has more. */
export const EXPORT_CAP = 5000
const PAGE = 100

/** Every object of a list, page by page through the owning module's service (its cursors), up to the cap. */
async function all<T>(page: (q: { cursor?: string; limit: number }) => Promise<PageResult<T>>): Promise<{ objects: Json[]; truncated: boolean }> {
  const objects: Json[] = []
  let cursor: string | undefined
  for (;;) {
    const p = await page({ ...(cursor ? { cursor } : {}), limit: PAGE })
    objects.push(...(p.data as Json[]))
    if (objects.length >= EXPORT_CAP) return { objects: objects.slice(0, EXPORT_CAP), truncated: p.has_more || objects.length > EXPORT_CAP }
    if (!p.has_more || !p.next_cursor) return { objects, truncated: false }
    cursor = p.next_cursor
  }
}

type Lister = (services: Services, principal: Principal) => Promise<{ objects: Json[]; truncated: boolean }>

/** How the existing objects of each resource type are read: the owning module's list method. */
export const LISTERS: Record<string, Lister> = {
  svc_bot: (s, p) => all((q) => s.bots.bots.list(p, q)),
  svc_knowledge_base: (s, p) => all((q) => s.knowledge.bases.list(p, q)),
  svc_agent: (s, p) => all((q) => s.agents.agents.list(p, q)),
  svc_webhook_endpoint: (s, p) => all((q) => s.webhooks.endpoints.list(p, q)),
  svc_oauth_app: (s, p) => all((q) => s.oauth.apps.list(p, q)),
  svc_voice_number: (s, p) => all((q) => s.voice.numbers.list(p, q)),
  svc_reply_template: (s, p) => all((q) => s.inbox.replyTemplates.list(p, q)),
  svc_tag: (s, p) => all((q) => s.inbox.tags.list(p, q)),
  svc_retention_policy: async (s, p) => ({ objects: [(await s.compliance.retention.get(p)) as unknown as Json], truncated: false }),
}
