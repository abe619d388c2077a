import { defineRoute } from '../../../kernel/http/define-route.js'
import { CreateVoiceCallBody, VoiceCall } from '../voice.schemas.js'

export const createVoiceCall = defineRoute({
  operationId: 'createVoiceCall',
  method: 'POST',
  url: '/voice/calls',
  module: 'voice',
  scope: 'write',
  minRole: 'member', // calling is day-to-day; numbers are admins'
  summary: 'Place an outbound call',
  description:
    'From one of your numbers to `to` (E.164), answered by `bot_id`, `agent_id` or `greeting` (default: what the number is set to), recorded ' +
    'with `record: true`. Answers 201 with the call `queued`; it moves through ringing and in_progress to its end from the worker ' +
    '(call.* events). Sandbox test destinations have fixed outcomes: +15005550006 answers, +15005550007 busy, +15005550008 no answer, ' +
    '+15005550009 fails (docs/voice.md). `script` gives the called party’s lines on the simulated carrier.',
  schema: { body: CreateVoiceCallBody, response: { 201: VoiceCall } },
  errors: ['resource_not_found', 'invalid_reference', 'bot_not_published'],
  handler: ({ body, principal, services }) => services.voice.calls.create(principal, body),
})
