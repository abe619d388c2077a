import { defineRoute } from '../../../kernel/http/define-route.js'
import { Bot, VersionParams } from '../bots.schemas.js'

export const rollbackBotVersion = defineRoute({
  operationId: 'rollbackBotVersion',
  method: 'POST',
  url: '/bots/{id}/versions/{run_id}/rollback',
  module: 'bots',
  scope: 'bots:write',
  summary: 'Roll back to an earlier bot version',
  description:
    'Makes an earlier version (`run_id` is the version id, bver_…) live again at once. History is not rewritten: later versions ' +
    'stay and can be published again. A version of another bot is a 404; the live or a later version is a 409.',
  schema: { params: VersionParams, response: { 200: Bot } },
  errors: ['resource_not_found', 'bot_archived', 'bot_not_published', 'not_an_earlier_version'],
  handler: ({ params, principal, services }) => services.bots.versions.rollback(principal, params.id, params.run_id),
})
