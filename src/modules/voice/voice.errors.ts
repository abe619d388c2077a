import { defineErrors, type ErrorSpec } from '../../kernel/errors.js'

/** The voice module's error codes (the kernel keeps only generic ones). */
export const VOICE_ERRORS = defineErrors('voice', {
  // provisionVoiceNumber for a country the carrier has no numbers in (the simulated carrier: US, CA, GB, AU).
  country_not_supported: { status: 422, title: 'Country not supported' },
  // provisionVoiceNumber when the carrier has no free number matching (country, area code).
  number_not_available: { status: 409, title: 'No number available' },
  // releaseVoiceNumber while a call from or to the number is queued, ringing or in progress.
  number_in_use: { status: 409, title: 'Number in use' },
  // releaseVoiceNumber / updateVoiceNumber of a Twilio number when the workspace has no Twilio account configured any more.
  carrier_not_configured: { status: 409, title: 'Carrier not configured' },
  // transferVoiceCall on a call that is not in progress (queued, ringing, or ended).
  call_not_in_progress: { status: 409, title: 'Call not in progress' },
  // hangupVoiceCall on a call that has ended.
  call_ended: { status: 409, title: 'Call ended' },
  // getVoiceRecording for a call that was not recorded, or before its recording exists.
  recording_not_found: { status: 404, title: 'Recording not found' },
  // The audio of a recording still processing, unavailable (no speech synthesiser) or failed.
  recording_not_ready: { status: 409, title: 'Recording not ready' },
  // The carrier (Twilio) refused or failed a request; `carrier_status` and `carrier_code` say what it answered.
  carrier_error: { status: 502, title: 'Carrier error' },
  // A carrier callback whose signature does not verify (X-Twilio-Signature).
  carrier_signature_invalid: { status: 403, title: 'Carrier signature invalid' },
})

declare module '../../kernel/errors.js' {
  interface ErrorCodes extends Record<keyof typeof VOICE_ERRORS, ErrorSpec> {}
}
