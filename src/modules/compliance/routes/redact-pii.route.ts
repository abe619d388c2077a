import { defineRoute } from '../../../kernel/http/define-route.js'
import { PiiRedaction, RedactPiiBody } from '../compliance.schemas.js'

export const redactPii = defineRoute({
  operationId: 'redactPii',
  method: 'POST',
  url: '/compliance/pii-redaction',
  module: 'compliance',
  scope: 'write',
  minRole: 'member', // redacting a conversation's personal data is part of handling it
  summary: 'Find and redact personal data',
  description:
    'In a `text`, a stored message (`message_id`) or every message of a conversation (`conversation_id`): emails, phone numbers, card numbers ' +
    '(Luhn), IBANs (checksum), IP addresses, URLs, US SSNs and dates of birth (docs/compliance.md). Returns the redacted text and each ' +
    'entity with its offsets in both texts. `mode` mask (`[EMAIL]`), remove, or hash (a keyed hash: the same value gives the same token). ' +
    'A preview unless `apply: true`, which rewrites the stored messages (message.updated; audited).',
  schema: { body: RedactPiiBody, response: { 200: PiiRedaction } },
  errors: ['invalid_reference'],
  handler: ({ body, principal, services }) => services.compliance.pii.redact(principal, body),
})
