import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, VoiceCall } from '../voice.schemas.js'

export const hangupVoiceCall = defineRoute({
  operationId: 'hangupVoiceCall',
  method: 'POST',
  url: '/voice/calls/{id}/hangup',
  module: 'voice',
  scope: 'write',
  minRole: 'member',
  summary: 'Hang up a call',
  description:
    'Ends the call now, with `end_reason` `ended_by_api`: a call queued or ringing is canceled (call.failed), a call in progress completes ' +
    '(call.completed) with its transcript and recording up to this moment. 409 `call_ended` once it has ended. On Twilio the call is ended there first.',
  schema: { params: IdParams, response: { 200: VoiceCall } },
  errors: ['resource_not_found', 'call_ended', 'carrier_error', 'carrier_not_configured'],
  handler: ({ params, principal, services }) => services.voice.hangups.hangup(principal, params.id),
})
