import { defineRoute } from '../../../kernel/http/define-route.js'
import { BotVersion, CreateBotVersionBody, IdParams } from '../bots.schemas.js'

export const createBotVersion = defineRoute({
  operationId: 'createBotVersion',
  method: 'POST',
  url: '/bots/{id}/versions',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Freeze a bot version',
  description: 'Freezes the draft — instructions, knowledge links, hand-off, AI settings, guardrails and tools — into the next numbered, ' + 'immutable version. It is not live until published.',
  schema: { params: IdParams, body: CreateBotVersionBody, response: { 201: BotVersion } },
  errors: ['resource_not_found', 'bot_archived'],
  handler: ({ params, body, principal, services }) => services.bots.versions.create(principal, params.id, body ?? {}),
})
