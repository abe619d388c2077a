import { defineRoute } from '../../../kernel/http/define-route.js'
import { ListVoiceCallsQuery, VoiceCallList } from '../voice.schemas.js'

export const listVoiceCalls = defineRoute({
  operationId: 'listVoiceCalls',
  method: 'GET',
  url: '/voice/calls',
  module: 'voice',
  scope: 'read',
  summary: 'List voice calls',
  description: 'Newest first. Filters: `status`, `number_id`, `direction`.',
  schema: { querystring: ListVoiceCallsQuery, response: { 200: VoiceCallList } },
  handler: ({ query, principal, services }) => services.voice.calls.list(principal, query),
})
