import { AppError } from '../../kernel/errors.js'
import type { Kernel } from '../../kernel/kernel.js'
import { detectPii, isPhoneRegion, PII_TYPES, redactPii, type PiiType } from '../../kernel/pii/pii.js'
import type { Services } from '../../kernel/services.js'
import type { Principal } from '../../kernel/tenant.js'
import type { PiiRedactionT, RedactPiiBodyT } from './compliance.schemas.js'
import { referenced } from '../../kernel/references.js'

/**
 * redactPii: the kernel's PII engine on a text, or on a stored message or a conversation's messages.
 * A preview by default; `apply: true` writes the redacted text back to the messages, in one transaction
 * with the request (so it is audited like any change: the message ids, never the values).
 */
export class PiiRedactionService {
  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {}

  async redact(principal: Principal, body: RedactPiiBodyT): Promise<PiiRedactionT> {
    const sources = [body.text !== undefined, !!body.message_id, !!body.conversation_id].filter(Boolean).length
    if (sources !== 1)
      throw new AppError('validation_failed', 'Send exactly one of text, message_id and conversation_id.', {
        errors: [{ pointer: '/body', detail: 'exactly one of text, message_id, conversation_id' }],
      })
    const unknown = (body.types ?? []).find((t) => !(PII_TYPES as readonly string[]).includes(t))
    if (unknown) {
      throw new AppError('validation_failed', `Unknown entity type '${unknown}'; the types are ${PII_TYPES.join(', ')}.`, {
        errors: [{ pointer: `/body/types/${body.types!.indexOf(unknown)}`, detail: 'unknown entity type' }],
      })
    }
    if (body.apply && body.text !== undefined)
      throw new AppError('validation_failed', 'apply works on stored messages; a text is only previewed.', { errors: [{ pointer: '/body/apply', detail: 'only with message_id or conversation_id' }] })
    if (body.region !== undefined && !isPhoneRegion(body.region.toUpperCase())) {
      throw new AppError('validation_failed', `'${body.region}' is not a region with phone number metadata (ISO 3166-1 alpha-2).`, {
        errors: [{ pointer: '/body/region', detail: 'must be an ISO 3166-1 alpha-2 region code such as GB or US' }],
      })
    }
    // A national number ("020 7946 0018") means nothing without a region: the request's, else the workspace's.
    const region = body.region?.toUpperCase() ?? (await this.services.workspaces.defaultRegion(principal))
    const mode = body.mode ?? 'mask'
    const types = body.types as PiiType[] | undefined
    const texts: { message_id: string | null; original: string }[] =
      body.text !== undefined
        ? [{ message_id: null, original: body.text }]
        : await referenced(body.message_id ? '/body/message_id' : '/body/conversation_id', () =>
            this.services.inbox.messages.texts(principal, { messageId: body.message_id ?? null, conversationId: body.conversation_id ?? null }),
          )
    const hashKey = this.k.deriveKey(`pii-hash:${principal.workspaceId}`)
    const items = texts.map((t) => {
      const found = detectPii(t.original, { types, ...(region ? { region } : {}) })
      const out = redactPii(t.original, found, mode, { hashKey, ...(region ? { region } : {}) })
      return {
        message_id: t.message_id,
        original: t.original,
        redacted: out.text,
        entities: out.entities.map((e) => ({ type: e.type, start: e.start, end: e.end, redacted_start: e.redacted_start, redacted_end: e.redacted_end, replacement: e.replacement })),
      }
    })
    const result: PiiRedactionT = { object: 'pii_redaction', mode, applied: !!body.apply, region, items, entity_count: items.reduce((n, i) => n + i.entities.length, 0) }
    // A preview changes nothing, but its Idempotency-Key still commits with the answer (a retry replays it).
    if (!body.apply) return this.k.transaction(principal, async () => result)
    return this.k.transaction(principal, async (tx) => {
      for (const i of items) if (i.entities.length > 0) await this.services.inbox.messages.rewrite(tx, principal, i.message_id!, i.redacted)
      return result
    })
  }
}
