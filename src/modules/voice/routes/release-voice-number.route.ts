import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, ReleasedVoiceNumber } from '../voice.schemas.js'

export const releaseVoiceNumber = defineRoute({
  operationId: 'releaseVoiceNumber',
  method: 'DELETE',
  url: '/voice/numbers/{id}',
  module: 'voice',
  scope: 'write',
  summary: 'Release a voice number',
  description:
    'Gives the number back to its carrier (Twilio releases it from the account; a simulated number becomes free for anyone) and ' +
    'removes it; past calls keep their record and phone numbers. 409 `number_in_use` while a call from or to it is queued, ringing ' +
    'or in progress. A Twilio number already released in the Twilio console is removed here all the same.',
  schema: { params: IdParams, response: { 200: ReleasedVoiceNumber } },
  errors: ['resource_not_found', 'number_in_use', 'carrier_error', 'carrier_not_configured'],
  handler: ({ params, principal, services }) => services.voice.numbers.release(principal, params.id),
})
