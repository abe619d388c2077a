// What the voice module needs from a phone carrier. The simulated carrier (default, and always in the
// sandbox) runs calls itself from the worker; the Twilio adapter speaks Twilio's REST wire format.

/** A call's status (docs/voice.md "Call states"). */
export type CallStatus = 'queued' | 'ringing' | 'in_progress' | 'completed' | 'busy' | 'no_answer' | 'failed' | 'canceled'

/** A workspace's Twilio account, secrets opened (stored sealed in workspace settings). */
export interface TwilioCredentials {
  account_sid: string
  auth_token: string
  /** https://api.twilio.com, or a Twilio-compatible server (tests start one on 127.0.0.1). */
  base_url: string
}

export interface CarrierNumber {
  /** Twilio's IncomingPhoneNumber SID (PN…). */
  sid: string
  /** E.164. */
  phone_number: string
  friendly_name: string
  capabilities: { voice: boolean; sms: boolean }
}

export interface CarrierCall {
  /** Twilio's Call SID (CA…). */
  sid: string
  /** Our status, mapped from Twilio's. */
  status: CallStatus
}

/** A carrier request that failed (kernel/twilio/http.ts, shared with the channels module). */
export { CarrierError } from '../../../kernel/twilio/http.js'
