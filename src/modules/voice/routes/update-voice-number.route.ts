import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, UpdateVoiceNumberBody, VoiceNumber } from '../voice.schemas.js'

export const updateVoiceNumber = defineRoute({
  operationId: 'updateVoiceNumber',
  method: 'PATCH',
  url: '/voice/numbers/{id}',
  module: 'voice',
  scope: 'write',
  summary: 'Update a voice number',
  description:
    'Renames the number (at Twilio too, for a Twilio number) or changes what answers the calls that arrive from now on: `bot_id` or ' +
    '`agent_id` replaces the other, either set to null leaves the greeting alone answering, `greeting` null returns to the ' +
    "answerer's own. Calls already answered keep their answerer. 422 for both `bot_id` and `agent_id`; 422 `invalid_reference` for an unknown bot or agent.",
  schema: { params: IdParams, body: UpdateVoiceNumberBody, response: { 200: VoiceNumber } },
  errors: ['resource_not_found', 'invalid_reference', 'bot_not_published', 'carrier_error', 'carrier_not_configured'],
  handler: ({ params, body, principal, services }) => services.voice.numbers.update(principal, params.id, body),
})
