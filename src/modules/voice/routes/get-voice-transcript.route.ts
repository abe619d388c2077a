import { defineRoute } from '../../../kernel/http/define-route.js'
import { IdParams, VoiceTranscript } from '../voice.schemas.js'

export const getVoiceTranscript = defineRoute({
  operationId: 'getVoiceTranscript',
  method: 'GET',
  url: '/voice/calls/{id}/transcript',
  module: 'voice',
  scope: 'read',
  summary: "Get a call's transcript",
  description:
    'Segments in time order with `speaker` (bot, caller, member), `start_ms` / `end_ms` from the answer, `text` and `confidence`, and the ' +
    'language. `status` is pending until the call ends; `unavailable` (with `reason`) for a call not answered, or on a real carrier without a ' +
    'transcription endpoint configured.',
  schema: { params: IdParams, response: { 200: VoiceTranscript } },
  errors: ['resource_not_found'],
  handler: ({ params, principal, services }) => services.voice.media.transcript(principal, params.id),
})
