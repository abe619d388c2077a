import { placeholdersOf } from '../../kernel/ai/ai.js'
import { iso } from '../../kernel/clock.js'
import { uniqueConflict } from '../../kernel/db/unique-conflict.js'
import { AppError } from '../../kernel/errors.js'
import type { PageResult } from '../../kernel/http/pagination.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import * as repo from './inbox.repository.js'
import { TEMPLATE_PLACEHOLDERS, type CreateReplyTemplateBodyT, type ReplyTemplateT } from './inbox.schemas.js'
import type { InboxReplyTemplatesTable } from './inbox.tables.js'
import { templateView } from './inbox.views.js'

/** Reply templates: list and create (known placeholders only; name and shortcut unique per workspace). */
export class ReplyTemplatesService {
  constructor(private readonly k: Kernel) {}

  async list(tenant: Tenant, q: { cursor?: string; limit?: number }): Promise<PageResult<ReplyTemplateT>> {
    return this.k.paginate({
      list: 'listReplyTemplates',
      tenant,
      query: q,
      fetch: (page) => repo.listTemplates(this.k.db, tenant, page),
      key: (r) => r.id,
      view: templateView,
    })
  }

  async create(tenant: Tenant, body: CreateReplyTemplateBodyT): Promise<ReplyTemplateT> {
    const unknown = placeholdersOf(body.content).filter((p) => !(TEMPLATE_PLACEHOLDERS as readonly string[]).includes(p))
    if (unknown.length > 0) {
      throw new AppError('validation_failed', `Unknown placeholder ${unknown.map((p) => `{{${p}}}`).join(', ')}; use ${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}.`, {
        errors: [{ pointer: '/body/content', detail: `unknown placeholder: ${unknown.join(', ')}` }],
      })
    }
    const now = iso(this.k.clock.now())
    const row: InboxReplyTemplatesTable = {
      id: newId('tpl'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      name: body.name,
      name_key: body.name.toLowerCase(),
      content: body.content,
      shortcut: body.shortcut ?? null,
      language: body.language ?? null,
      created_at: now,
      updated_at: now,
    }
    return uniqueConflict(
      () =>
        this.k.transaction(tenant, async (tx) => {
          await repo.insertTemplate(tx, row)
          return templateView(row)
        }),
      'template_already_exists',
      [
        { constraint: /shortcut/, pointer: '/body/shortcut', detail: 'already used in this workspace', message: `A reply template with the shortcut '${body.shortcut}' already exists.` },
        { pointer: '/body/name', detail: 'already used in this workspace', message: `A reply template named '${body.name}' already exists.` },
      ],
    )
  }
}
