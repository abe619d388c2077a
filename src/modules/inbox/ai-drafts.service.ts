import { threadQuery, type AiTurn } from '../../kernel/ai/ai.js'
import { iso } from '../../kernel/clock.js'
import { toJson } from '../../kernel/db/database.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { ANSWERED_THRESHOLD } from '../knowledge/knowledge.search.schemas.js'
import * as repo from './inbox.repository.js'
import type { AiDraftT } from './inbox.schemas.js'
import { conversationOr404 } from './inbox.shared.js'
import type { InboxAiDraftsTable } from './inbox.tables.js'
import { draftView } from './inbox.views.js'

/** Messages a draft reads (the latest, oldest first) and templates it ranks: bounded for latency. */
const DRAFT_CONTEXT_MESSAGES = 10
const DRAFT_MAX_TEMPLATES = 500
/** Knowledge passages offered to the engine beside the templates (the best of the workspace's bases). */
const DRAFT_PASSAGES = 3

/** AI drafts of the next reply, through the kernel's engine (`kernel.ai`). */
export class AiDraftsService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  /** The engine runs outside the transaction (no lock held across a network call); only the insert is inside. */
  async create(tenant: Tenant, id: string, body: { instructions?: string }): Promise<AiDraftT> {
    const conv = await conversationOr404(this.k, this.k.db, tenant, id)
    const [messages, templates] = await Promise.all([
      repo.recentMessages(this.k.db, tenant, id, DRAFT_CONTEXT_MESSAGES),
      repo.listTemplates(this.k.db, tenant, { after: null, limit: DRAFT_MAX_TEMPLATES - 1 }),
    ])
    const transcript: AiTurn[] = messages.map((m) => ({ role: m.direction === 'inbound' ? 'customer' : 'agent', text: m.content, id: m.id }))
    // The knowledge module's passages for what the latest customer message asks (its asking sentences, not
    // its greeting or signature), cited by chunk id like a search result (a poorly answered question
    // becomes a knowledge gap there). Their score is the calibrated relevance the engine ranks templates
    // on too, and a draft is grounded only from a source reaching the knowledge module's "answered".
    const asked = threadQuery(transcript).text
    const passages = asked.trim() ? await this.services.knowledge.search.passages(tenant, asked, { topK: DRAFT_PASSAGES }) : []
    const gen = await this.k.ai.generate({
      task: 'Draft the next reply of a support agent to the customer in this conversation.',
      transcript,
      sources: [
        ...templates.map((t) => ({ kind: 'template' as const, id: t.id, title: t.name, text: t.content })),
        ...passages.map((p) => ({ kind: 'passage' as const, id: p.chunk_id, title: p.title, text: p.text, relevance: p.score })),
      ],
      minRelevance: ANSWERED_THRESHOLD,
      variables: {
        'contact.name': conv.contact_name,
        'contact.email': conv.contact_email,
        'contact.phone': conv.contact_phone,
        'conversation.subject': conv.subject,
      },
      instructions: body.instructions ?? null,
    })
    const row: InboxAiDraftsTable = {
      id: newId('drf'),
      workspace_id: tenant.workspaceId,
      mode: tenant.mode,
      conversation_id: id,
      content: gen.content,
      confidence: gen.confidence,
      grounded: gen.grounded ? 1 : 0,
      sources: toJson(gen.sources),
      provider: gen.provider,
      model: gen.model,
      created_at: iso(this.k.clock.now()),
    }
    const view = draftView(row)
    return this.k.transaction(tenant, async (tx) => {
      await repo.insertDraft(tx, row)
      await this.k.events.emit(tx, tenant, 'ai_draft.created', view)
      return view
    })
  }
}
