import { defineRoute } from '../../../kernel/http/define-route.js'
import { ListVoiceNumbersQuery, VoiceNumberList } from '../voice.schemas.js'

export const listVoiceNumbers = defineRoute({
  operationId: 'listVoiceNumbers',
  method: 'GET',
  url: '/voice/numbers',
  module: 'voice',
  scope: 'read',
  summary: 'List voice numbers',
  description: 'Newest first; filter by `country`.',
  schema: { querystring: ListVoiceNumbersQuery, response: { 200: VoiceNumberList } },
  handler: ({ query, principal, services }) => services.voice.numbers.list(principal, query),
})
