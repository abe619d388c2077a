import { defineRoute } from '../../../kernel/http/define-route.js'
import { InboxCounts } from '../inbox.schemas.js'

export const getInboxCounts = defineRoute({
  operationId: 'getInboxCounts',
  method: 'GET',
  url: '/inbox/counts',
  module: 'inbox',
  scope: 'conversations:read',
  summary: 'Counts of the inbox (for the member)',
  description:
    'Open conversations: all, assigned to the member behind the credential (`mine`), `unassigned`, with unread inbound ' +
    'messages (`unread`) and both (`mine_unread`). Each count stops at `capped_at` (100; show it as “100+”), so the ' +
    'answer costs the same in any workspace. Member credentials only (an API key: 422 `member_credential_required`).',
  schema: { response: { 200: InboxCounts } },
  errors: ['member_credential_required'],
  handler: ({ principal, services }) => services.inbox.working.counts(principal),
})
