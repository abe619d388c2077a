import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, VoiceCall } from '../voice.schemas.js'

export const getVoiceCall = defineRoute({
  operationId: 'getVoiceCall',
  method: 'GET',
  url: '/voice/calls/{id}',
  module: 'voice',
  scope: 'read',
  summary: 'Get a voice call',
  description: 'The call with its status, the time of each step (`history`), its duration, transfers, and links to its recording and transcript.',
  schema: { params: IdParams, response: { 200: VoiceCall } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.voice.calls.get(principal, params.id),
})
