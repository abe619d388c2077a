import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateReplyTemplateBody, ReplyTemplate, TEMPLATE_PLACEHOLDERS } from '../inbox.schemas.js'

export const createReplyTemplate = defineRoute({
  operationId: 'createReplyTemplate',
  method: 'POST',
  url: '/inbox/templates',
  module: 'inbox',
  scope: 'messages:write',
  summary: 'Create a reply template',
  description:
    `Name unique in the workspace (case-insensitive), optional unique \`shortcut\` and \`language\`. Content may use ` +
    `${TEMPLATE_PLACEHOLDERS.map((p) => `{{${p}}}`).join(', ')}; any other placeholder answers 422. AI drafts rank these templates.`,
  schema: { body: CreateReplyTemplateBody, response: { 201: ReplyTemplate } },
  errors: ['template_already_exists'],
  handler: ({ body, principal, services }) => services.inbox.replyTemplates.create(principal, body),
})
