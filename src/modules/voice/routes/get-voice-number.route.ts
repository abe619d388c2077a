import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, VoiceNumber } from '../voice.schemas.js'

export const getVoiceNumber = defineRoute({
  operationId: 'getVoiceNumber',
  method: 'GET',
  url: '/voice/numbers/{id}',
  module: 'voice',
  scope: 'read',
  summary: 'Retrieve a voice number',
  description: 'The number, its carrier and what answers its calls.',
  schema: { params: IdParams, response: { 200: VoiceNumber } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.voice.numbers.get(principal, params.id),
})
