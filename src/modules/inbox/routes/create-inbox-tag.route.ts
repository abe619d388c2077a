import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateInboxTagBody, InboxTag } from '../inbox.schemas.js'

export const createInboxTag = defineRoute({
  operationId: 'createInboxTag',
  method: 'POST',
  url: '/inbox/tags',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Create a conversation tag',
  description: 'Names are unique in the workspace case-insensitively (409 `tag_already_exists`); `color` is #rrggbb (default #6b7280).',
  schema: { body: CreateInboxTagBody, response: { 201: InboxTag } },
  errors: ['tag_already_exists'],
  handler: ({ body, principal, services }) => services.inbox.tags.create(principal, body),
})
