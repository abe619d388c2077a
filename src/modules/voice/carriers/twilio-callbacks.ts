import type { FastifyInstance, FastifyRequest } from 'fastify'
import { sideOwner } from '../../../kernel/audit/audit.js'
import { fromJson, toJson } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import { enqueue } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import { estimateMs } from '../call-plan.js'
import { answererFor } from '../voice-answerer.js'
import * as repo from '../voice.repository.js'
import { FINAL_STATUSES, tenantOf } from '../voice.shared.js'
import { ENDED_BY_API } from '../call-hangup.service.js'
import type { CallLine, VoiceCallsTable } from '../voice.tables.js'
import type { TwilioCarriers } from './twilio-voice.js'
import { callTwiml, CALLBACK_BASE, listen, MAX_TURNS } from './twilio-twiml.js'
import { twilioParams, verifyTwilioSignature, type TwilioParams } from '../../../kernel/twilio/signature.js'
import { twilioStatus } from './twilio.status.js'
import { hangup, response, say } from './twiml.js'

const one = (p: TwilioParams, name: string): string => {
  const v = p[name]
  return (Array.isArray(v) ? v[0] : v) ?? ''
}

/**
 * Twilio's requests to us, each verified with the X-Twilio-Signature of the workspace's auth token over
 * our public URL and the form (403 `carrier_signature_invalid` otherwise, also for a number or call we do
 * not have, which has no token to verify with):
 * - POST /carriers/twilio/voice — an inbound call to one of our numbers: answered with TwiML;
 * - POST /carriers/twilio/status — call progress: the call moves through our states;
 * - POST /carriers/twilio/gather — what the caller said: the bot or agent answers with TwiML;
 * - POST /carriers/twilio/recording — a recording is ready: fetched and stored by a job.
 */
export function twilioCallbacks(k: Kernel, services: Services, carriers: TwilioCarriers) {
  return async (app: FastifyInstance) => {
    app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => done(null, twilioParams(new URLSearchParams(String(body)))))
    const base = `${k.config.publicUrl}${CALLBACK_BASE}`

    // One answer for every callback that is not proven Twilio's: a number or call we do not have is refused
    // exactly like a bad signature on one we do, so that unsigned requests cannot tell which numbers are ours.
    const refused = () => new AppError('carrier_signature_invalid', 'The X-Twilio-Signature header does not verify with the workspace’s Twilio auth token.')
    /** The tenant's token verifies the request's signature, or 403. */
    const verify = async (request: FastifyRequest, tenant: Tenant): Promise<TwilioParams> => {
      const params = (request.body ?? {}) as TwilioParams
      const token = await carriers.authToken(tenant)
      if (!token || !verifyTwilioSignature(token, `${k.config.publicUrl}${request.url}`, params, request.headers['x-twilio-signature'])) throw refused()
      return params
    }
    const callOf = async (request: FastifyRequest): Promise<VoiceCallsTable> => {
      const params = (request.body ?? {}) as TwilioParams
      const { call: id } = request.query as { call?: string }
      const call = (one(params, 'CallSid') && (await repo.findCallBySid(k.db, 'twilio', one(params, 'CallSid')))) || (id ? await repo.findCallAnywhere(k.db, id) : undefined)
      if (!call || call.carrier !== 'twilio') throw refused()
      return call
    }

    app.post(`${CALLBACK_BASE}/voice`, async (request, reply) => {
      const raw = (request.body ?? {}) as TwilioParams
      const number = await repo.findNumberByE164(k.db, 'twilio', 'live', one(raw, 'To'))
      if (!number) throw refused()
      const tenant = tenantOf(number)
      const params = await verify(request, tenant)
      const call = await services.voice.calls.receive(tenant, number, one(params, 'From'), one(params, 'CallSid'), services.voice.lifecycle)
      return reply.type('text/xml').send(await callTwiml(k, services, tenant, call, base))
    })

    app.post(`${CALLBACK_BASE}/status`, async (request, reply) => {
      let call = await callOf(request)
      const tenant = tenantOf(call)
      const params = await verify(request, tenant)
      const to = twilioStatus(one(params, 'CallStatus'))
      const sid = one(params, 'CallSid')
      // This callback is the first to name the call (its placement never learned the sid).
      const naming = !!sid && call.carrier_sid !== sid
      const stamp = Date.parse(one(params, 'Timestamp'))
      const at = Number.isFinite(stamp) ? new Date(stamp) : k.clock.now()
      await k.transaction(sideOwner(tenant), async (tx) => {
        if (naming) {
          // The first callback of a call whose placement did not learn its sid (the worker died mid-request).
          if (await repo.updateCallIf(tx, tenant, call.id, call, { carrier_sid: sid })) call = { ...call, carrier_sid: sid }
        }
        if (!to || to === 'queued') return
        if (to === 'completed' && (call.status === 'queued' || call.status === 'ringing')) {
          // The answer's callback was lost or is late: the call was answered CallDuration seconds before it ended.
          const answered = new Date(at.getTime() - Number(one(params, 'CallDuration') || 0) * 1000)
          call = (await services.voice.lifecycle.move(tx, tenant, call, 'in_progress', answered)) ?? call
        }
        // Only an end has a reason: `ringing` (or an answer) on a live call leaves end_reason alone.
        await services.voice.lifecycle.move(tx, tenant, call, to, at, to === 'completed' ? { end_reason: 'hangup' } : FINAL_STATUSES.has(to) ? { end_reason: to } : {})
      })
      // Hung up through the API while Twilio was still placing it: it goes on there until ended there too
      // (once: later callbacks of that call come after the end was asked for).
      if (naming && to && !FINAL_STATUSES.has(to) && call.end_reason === ENDED_BY_API) await carriers.endAtTwilio(tenant, sid)
      return reply.code(204).send()
    })

    app.post(`${CALLBACK_BASE}/gather`, async (request, reply) => {
      let call = await callOf(request)
      const tenant = tenantOf(call)
      const params = await verify(request, tenant)
      const turn = Number((request.query as { turn?: string }).turn ?? 0) || 0
      const heard = one(params, 'SpeechResult').trim()
      const answerer = await answererFor(k, services, tenant, call)
      const goodbye = () => reply.type('text/xml').send(response(say(answerer.closing ?? 'Goodbye.'), hangup()))
      if (call.status === 'queued' || call.status === 'ringing') {
        call = (await k.transaction(sideOwner(tenant), (tx) => services.voice.lifecycle.move(tx, tenant, call, 'in_progress', k.clock.now()))) ?? call
      }
      if (!heard || !answerer.reply || call.status !== 'in_progress') return goodbye()
      const lines = fromJson<CallLine[]>(call.lines, [])
      const t = k.clock.now().getTime() - Date.parse(call.answered_at!)
      const after = lines.length ? lines[lines.length - 1].end_ms : 0
      const confidence = Number(one(params, 'Confidence'))
      lines.push({
        speaker: 'caller',
        text: heard,
        start_ms: Math.max(after, t - estimateMs(heard)),
        end_ms: Math.max(after, t),
        confidence: Number.isFinite(confidence) ? Math.min(1, Math.max(0, confidence)) : null,
      })
      const transcript = [{ role: 'agent' as const, text: answerer.greeting }, ...lines.map((l) => ({ role: l.speaker === 'caller' ? ('customer' as const) : ('agent' as const), text: l.text }))]
      const answer = await answerer.reply(transcript, turn)
      const start = lines[lines.length - 1].end_ms + 300
      lines.push({ speaker: 'bot', text: answer.text, start_ms: start, end_ms: start + estimateMs(answer.text), confidence: 1 })
      await repo.updateCallIf(k.db, tenant, call.id, call, { lines: toJson(lines) })
      const last = answer.handoff || turn + 1 >= MAX_TURNS
      const twiml = last
        ? response(say(answer.text), say(answerer.closing ?? 'Goodbye.'), hangup())
        : response(listen(base, call.id, turn + 1, say(answer.text)), say(answerer.closing ?? 'Goodbye.'), hangup())
      return reply.type('text/xml').send(twiml)
    })

    app.post(`${CALLBACK_BASE}/recording`, async (request, reply) => {
      const call = await callOf(request)
      const tenant = tenantOf(call)
      const params = await verify(request, tenant)
      const status = one(params, 'RecordingStatus') || 'completed'
      await k.transaction(sideOwner(tenant), async (tx) => {
        if (status !== 'completed') {
          await repo.updateMediaIf(tx, tenant, call.id, { recording_status: 'processing' }, { recording_status: 'failed', recording_reason: `Twilio reported the recording ${status}.` })
          return
        }
        await repo.updateCallIf(tx, tenant, call.id, call, { recording_url: one(params, 'RecordingUrl') })
        await enqueue(tx, k.clock, carriers.recordingJob, { workspace_id: tenant.workspaceId, mode: tenant.mode, call_id: call.id })
      })
      return reply.code(204).send()
    })
  }
}
