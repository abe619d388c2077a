// Test support for twilio.testkit.ts (the Twilio-compatible server; its header says how to use it):
// Twilio's side of a call. Status callbacks, voice webhooks, <Gather> results and recording callbacks are
// signed with the OFFICIAL twilio package, so our verifier is held to an independent implementation.
import { randomBytes } from 'node:crypto'
import twilio from 'twilio'
import { request } from 'undici'
import {
  API_VERSION,
  basePath,
  durationOf,
  gathersOf,
  ownerOf,
  rfc2822,
  sid,
  TERMINAL,
  type CallbackOptions,
  type TwilioCall,
  type TwilioRecording,
  type TwilioState,
  type TwilioWebhookSent,
} from './twilio-wire.testkit.js'

/** Plays the account's calls: `url` is the REST API's origin (recordings are served there). */
export function twilioCallPlayer(s: TwilioState, url: string) {
  /** POSTs a signed form, as Twilio's webhooks are sent. */
  async function post(kind: TwilioWebhookSent['kind'], target: string, params: Record<string, string>, cb: CallbackOptions = {}) {
    const all = { ...params, ...cb.params }
    const signature = twilio.getExpectedTwilioSignature(cb.badSignature ? `${s.authToken}-wrong` : s.authToken, target, all)
    const sent: TwilioWebhookSent = { kind, url: target, params: all, signature, status: 0, body: '' }
    s.webhooks.push(sent)
    const res = await request(target, {
      method: 'POST',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'x-twilio-signature': signature,
        'i-twilio-idempotency-token': randomBytes(16).toString('hex'),
        'user-agent': 'TwilioProxy/1.1',
        accept: '*/*',
      },
      body: new URLSearchParams(all).toString(),
    })
    sent.status = res.statusCode
    sent.body = await res.body.text()
    return { status: sent.status, body: sent.body }
  }

  const callParams = (c: TwilioCall): Record<string, string> => ({
    AccountSid: s.accountSid,
    ApiVersion: API_VERSION,
    CallSid: c.sid,
    CallStatus: c.status,
    Called: c.to,
    Caller: c.from,
    Direction: c.direction,
    From: c.from,
    To: c.to,
  })

  function callOf(callSid: string): TwilioCall {
    const c = s.calls.get(callSid)
    if (!c) throw new Error(`twilio test server: no call ${callSid}`)
    return c
  }

  const EVENT_OF: Record<string, string> = { initiated: 'initiated', ringing: 'ringing', 'in-progress': 'answered' }

  /** Runs the TwiML answer of a webhook: it becomes what the call executes next. */
  function adopt(c: TwilioCall, from: string, answer: { status: number; body: string }) {
    if (answer.status >= 200 && answer.status < 300 && answer.body.trim().startsWith('<')) {
      c.twiml = answer.body
      c.twimlUrl = from
    }
  }

  return {
    /**
     * Moves a call to `status` (Twilio's spelling) and POSTs its status callback, when the call asked
     * for that event; answers our HTTP status, or null when Twilio would not have called (no
     * StatusCallback, event not subscribed). `duration` sets CallDuration on an ended call.
     */
    async advance(callSid: string, status: string, extra: CallbackOptions & { duration?: number } = {}): Promise<number | null> {
      const c = callOf(callSid)
      const now = new Date()
      if (status === 'in-progress' && !c.answeredAt) c.answeredAt = now.getTime()
      c.status = status
      c.dateUpdated = now
      const terminal = TERMINAL.has(status)
      const event = terminal ? 'completed' : EVENT_OF[status]
      if (!c.statusCallback || (event && !c.statusCallbackEvents.has(event))) return null
      const duration = extra.duration ?? durationOf(c)
      const params: Record<string, string> = {
        ...callParams(c),
        CallbackSource: 'call-progress-events',
        SequenceNumber: String(c.sequence++),
        Timestamp: rfc2822(now),
        ...(terminal ? { CallDuration: String(duration), Duration: String(Math.ceil(duration / 60)), SipResponseCode: status === 'completed' ? '200' : '487' } : {}),
      }
      return (await post('status', c.statusCallback, params, extra)).status
    },

    /**
     * A recording of the call is ready: served at `<url>/2010-04-01/Accounts/{sid}/Recordings/{RE…}.wav`
     * and announced to the call's RecordingStatusCallback (RecordingUrl without an extension).
     */
    async recordingReady(callSid: string, wav: Buffer, durationSec: number, cb: CallbackOptions = {}) {
      const c = callOf(callSid)
      const r: TwilioRecording = { sid: sid('RE'), callSid, wav, durationSec }
      s.recordings.set(r.sid, r)
      const recordingUrl = `${url}${basePath(s)}/Recordings/${r.sid}`
      if (!c.recordingStatusCallback) return { status: null, recordingSid: r.sid, recordingUrl }
      const params = {
        AccountSid: s.accountSid,
        CallSid: callSid,
        RecordingSid: r.sid,
        RecordingUrl: recordingUrl,
        RecordingStatus: 'completed',
        RecordingDuration: String(durationSec),
        RecordingChannels: c.recordingChannels === 'dual' ? '2' : '1',
        RecordingStartTime: rfc2822(c.answeredAt ? new Date(c.answeredAt) : c.dateCreated),
        RecordingSource: 'OutboundAPI',
        RecordingTrack: 'both',
        ErrorCode: '0',
      }
      const sent = await post('recording', c.recordingStatusCallback, params, cb)
      return { status: sent.status, recordingSid: r.sid, recordingUrl }
    },

    /** A call to one of the account's numbers: its VoiceUrl is asked what to do; our TwiML comes back. */
    async inbound(call: { to: string; from: string }, cb: CallbackOptions = {}) {
      const n = ownerOf(s, call.to)
      if (!n?.voice_url) throw new Error(`twilio test server: ${call.to} is not a number of the account with a VoiceUrl`)
      const now = new Date()
      const c: TwilioCall = {
        sid: sid('CA'),
        direction: 'inbound',
        to: call.to,
        from: call.from,
        status: 'ringing',
        twiml: null,
        twimlUrl: null,
        statusCallback: n.status_callback,
        statusCallbackEvents: new Set(['completed']),
        record: false,
        recordingChannels: 'mono',
        recordingStatusCallback: null,
        sequence: 0,
        answeredAt: null,
        dateCreated: now,
        dateUpdated: now,
      }
      s.calls.set(c.sid, c)
      const answer = await post('voice', n.voice_url, callParams(c), cb)
      adopt(c, n.voice_url, answer)
      if (c.twiml) {
        c.status = 'in-progress'
        c.answeredAt = Date.now()
      } else {
        c.status = 'failed'
      }
      return { ...answer, callSid: c.sid }
    },

    /**
     * The caller said `speechResult`: POSTed to the action of the last <Gather> the call runs. '' is
     * silence: POSTed without SpeechResult only where the <Gather> has actionOnEmptyResult="true" (else
     * Twilio goes on with the next verb and calls nobody: this throws).
     */
    async gather(callSid: string, speechResult: string, confidence = 0.92, cb: CallbackOptions = {}) {
      const c = callOf(callSid)
      const g = c.twiml ? gathersOf(c.twiml).at(-1) : undefined
      if (!g) throw new Error(`twilio test server: call ${callSid} runs no <Gather>`)
      const action = typeof g.action === 'string' && g.action !== '' ? g.action : c.twimlUrl
      if (!action) throw new Error(`twilio test server: the <Gather> of ${callSid} has no action`)
      const silent = speechResult === ''
      if (silent && String(g.actionOnEmptyResult) !== 'true') throw new Error(`twilio test server: silence on a <Gather> without actionOnEmptyResult posts nothing`)
      const target = new URL(action, c.twimlUrl ?? undefined).href
      const heard: Record<string, string> = silent ? {} : { SpeechResult: speechResult, Confidence: String(confidence) }
      const answer = await post('gather', target, { ...callParams(c), CallStatus: 'in-progress', ...heard }, cb)
      adopt(c, target, answer)
      return answer
    },
  }
}
