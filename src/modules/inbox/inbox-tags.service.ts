import { iso } from '../../kernel/clock.js'
import { uniqueConflict } from '../../kernel/db/unique-conflict.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './inbox.repository.js'
import type { InboxTagT } from './inbox.schemas.js'
import type { InboxTagsTable } from './inbox.tables.js'
import { tagView } from './inbox.views.js'

/** Inbox tags: list and create (names unique per workspace, case-insensitively). */
export class InboxTagsService {
  constructor(private readonly k: Kernel) {}

  async list(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<InboxTagT>> {
    return this.k.paginate({
      list: 'listInboxTags',
      tenant,
      query: q,
      fetch: (page) => repo.listTags(this.k.db, tenant, page),
      key: (r) => r.id,
      view: tagView,
    })
  }

  async create(tenant: Tenant, body: { name: string; color?: string }): Promise<InboxTagT> {
    const row: InboxTagsTable = {
      id: newId('tag'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      name_key: body.name.toLowerCase(),
      color: (body.color ?? '#6b7280').toLowerCase(),
      created_at: iso(this.k.clock.now()),
    }
    return uniqueConflict(
      () =>
        this.k.transaction(tenant, async (tx) => {
          await repo.insertTag(tx, row)
          return tagView(row)
        }),
      'tag_already_exists',
      [{ pointer: '/body/name', detail: 'already used in this workspace', message: `A tag named '${body.name}' already exists (names are case-insensitive).` }],
    )
  }
}
