import { defineRoute } from '../../../kernel/http/define-route.js'
import { ToolInput } from '../../../kernel/tools/tools.schemas.js'
import { AttachedBotTool, IdParams } from '../bots.schemas.js'

export const attachBotTool = defineRoute({
  operationId: 'attachBotTool',
  method: 'POST',
  url: '/bots/{id}/tools',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Attach a tool to a bot',
  description:
    'An HTTP tool (your endpoint, called with JSON arguments, a signature and an Idempotency-Key; see docs/tools.md) or a ' +
    'built-in (`search_knowledge`, `handoff_to_human`). The parameters must be a valid JSON Schema; the URL must pass the ' +
    "outbound address rules. An HTTP tool's `signing_secret` is shown once, in this response.",
  schema: { params: IdParams, body: ToolInput, response: { 201: AttachedBotTool } },
  errors: ['resource_not_found', 'tool_name_taken', 'too_many_tools'],
  handler: ({ params, body, principal, services }) => services.bots.tools.attach(principal, params.id, body),
})
