import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, TransferVoiceCallBody, VoiceCall } from '../voice.schemas.js'

export const transferVoiceCall = defineRoute({
  operationId: 'transferVoiceCall',
  method: 'POST',
  url: '/voice/calls/{id}/transfer',
  module: 'voice',
  scope: 'write',
  minRole: 'member',
  summary: 'Transfer a call in progress',
  description:
    'To `to.phone_number` or `to.member_id`, `cold` (connected at once) or `warm` (the announcement is spoken to the target first), with an ' +
    'optional `announcement`. Only while the call is in_progress: 409 `call_not_in_progress` otherwise. Emits call.transferred.',
  schema: { params: IdParams, body: TransferVoiceCallBody, response: { 200: VoiceCall } },
  errors: ['resource_not_found', 'invalid_reference', 'call_not_in_progress', 'carrier_error'],
  handler: ({ params, body, principal, services }) => services.voice.transfers.transfer(principal, params.id, body),
})
