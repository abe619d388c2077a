import { defineRoute } from '../../../kernel/http/define-route.js'
import { wantsAudio } from '../call-media.service.js'
import { IdParams, RecordingQuery, VoiceRecording, type VoiceRecordingT } from '../voice.schemas.js'

export const getVoiceRecording = defineRoute({
  operationId: 'getVoiceRecording',
  method: 'GET',
  url: '/voice/calls/{id}/recording',
  module: 'voice',
  scope: 'read',
  summary: "Get a call's recording",
  description:
    'JSON metadata (status processing / ready / unavailable / failed, duration, size, `media_url`), or the audio (`audio/wav`, HTTP Range ' +
    'supported) with `?format=wav` or `Accept: audio/wav`. 404 `recording_not_found` when the call was not recorded or before the recording ' +
    'exists; 409 `recording_not_ready` for the audio before it is ready.',
  schema: { params: IdParams, querystring: RecordingQuery, response: { 200: VoiceRecording } },
  media: { type: 'audio/wav', description: 'with `?format=wav` or `Accept: audio/wav`; `Range` supported' },
  errors: ['resource_not_found', 'recording_not_found', 'recording_not_ready', 'range_not_satisfiable'],
  // The audio is sent on `reply` (a stream); returning the reply tells Fastify it is taken care of.
  handler: async ({ params, query, principal, services, request, reply }) =>
    (await services.voice.media.recording(principal, params.id, wantsAudio(request, query.format) ? { request, reply } : null)) as VoiceRecordingT,
})
