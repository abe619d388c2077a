import { inheritAudit, sideOwner } from '../../../kernel/audit/audit.js'
import { CarrierSettings } from './carrier-settings.js'
import { toJson, type Tx } from '../../../kernel/db/database.js'
import { AppError } from '../../../kernel/errors.js'
import { defineJob, enqueue, type JobDefinition } from '../../../kernel/jobs/jobs.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { Tenant } from '../../../kernel/tenant.js'
import type { RealCarrier, VoiceCarriers } from '../voice-carriers.js'
import * as repo from '../voice.repository.js'
import type { VoiceService } from '../voice.service.js'
import type { CallCarrierTransfer, VoiceCallsTable, VoiceNumbersTable } from '../voice.tables.js'
import { recordingKey } from '../jobs/render-recording.job.js'
import { wavInfo } from '../speech/wav.js'
import { apiBase } from '../voice.shared.js'
import { recordingView } from '../voice.views.js'
import { CarrierError } from './carrier.types.js'
import { ENDED_BY_API } from '../call-hangup.service.js'
import { TwilioAdapter } from './twilio.adapter.js'
import { callTwiml, CALLBACK_BASE } from './twilio-twiml.js'
import { dial, response, say } from './twiml.js'

export interface PlacePayload {
  workspace_id: string
  mode: Tenant['mode']
  call_id: string
  /** A later check of a placement whose outcome was unknown. */
  check?: boolean
}

/** How long a placement of unknown outcome waits for Twilio's first status callback before the call fails. */
const UNKNOWN_OUTCOME_WAIT_MS = 5 * 60_000

/** Retries of a placement Twilio refused for now (429, 5xx before the call existed). */
const PLACE_RETRIES = [2, 10, 60]
/** The marker a placement writes before calling Twilio: a retry that finds it never calls again. */
const placing = (callId: string) => `placing:${callId}`

/** Twilio's refusal, as the API's problem: 502 `carrier_error` with what Twilio said. */
export function carrierProblem(err: unknown): unknown {
  if (!(err instanceof CarrierError)) return err
  return new AppError('carrier_error', err.message, { carrier_status: err.status, carrier_code: err.carrierCode })
}

/**
 * The Twilio carrier of live workspaces that configured it (PATCH /workspaces/{id} `voice`): numbers
 * bought from the account, calls placed with TwiML that speaks our greeting and gathers the caller's
 * speech for the bot or agent (carriers/twilio-callbacks.ts answers), transfers by redirecting the live
 * call. Callback URLs are under PUBLIC_URL, which Twilio must be able to reach.
 */
export class TwilioCarriers implements VoiceCarriers {
  private voice!: VoiceService
  readonly placeJob: JobDefinition<PlacePayload>
  readonly recordingJob: JobDefinition<PlacePayload>
  readonly jobs: JobDefinition[]
  /** The tenant's Twilio account, kept in the workspace's settings (registered here with services.workspaces). */
  readonly settings: CarrierSettings

  constructor(
    private readonly k: Kernel,
    private readonly services: Services,
  ) {
    this.settings = new CarrierSettings(k, services)
    services.workspaces.registerSettings(this.settings)
    this.placeJob = this.placement()
    this.recordingJob = this.recordingFetch()
    this.jobs = [this.placeJob, this.recordingJob]
  }

  attach(voice: VoiceService): void {
    this.voice = voice
  }

  /** The tenant's Twilio adapter, or null (the sandbox, or no account configured). */
  async adapter(tenant: Tenant): Promise<TwilioAdapter | null> {
    if (tenant.mode !== 'live') return null
    const conn = await this.settings.connection(tenant)
    return conn ? new TwilioAdapter(this.k, conn) : null
  }

  /** The auth token a callback of this tenant is signed with (null: none configured any more). */
  async authToken(tenant: Tenant): Promise<string | null> {
    return tenant.mode === 'live' ? ((await this.settings.connection(tenant))?.auth_token ?? null) : null
  }

  async twilio(tenant: Tenant): Promise<RealCarrier | null> {
    const adapter = await this.adapter(tenant)
    if (!adapter) return null
    const base = `${this.k.config.publicUrl}${CALLBACK_BASE}`
    return {
      provision: async (row: VoiceNumbersTable, country: string, areaCode: string | null) => {
        try {
          const found = await adapter.searchNumber(country, areaCode)
          if (!found) throw new AppError('number_not_available', `Twilio has no number with voice in ${country}${areaCode ? ` area ${areaCode}` : ''} right now.`)
          const bought = await adapter.buyNumber(found.phone_number, {
            friendlyName: row.friendly_name === '' ? found.friendly_name : row.friendly_name,
            voiceUrl: `${base}/voice`,
            statusCallback: `${base}/status`,
          })
          return {
            e164: bought.phone_number,
            carrier: 'twilio' as const,
            carrier_sid: bought.sid,
            friendly_name: row.friendly_name || bought.friendly_name,
            capabilities: toJson(bought.capabilities),
          }
        } catch (err) {
          throw carrierProblem(err)
        }
      },
      rename: async (number: VoiceNumbersTable, friendlyName: string) => {
        try {
          await adapter.renameNumber(number.carrier_sid!, friendlyName)
        } catch (err) {
          throw carrierProblem(err)
        }
      },
      release: async (number: VoiceNumbersTable) => {
        try {
          await adapter.releaseNumber(number.carrier_sid!)
        } catch (err) {
          throw carrierProblem(err)
        }
      },
      queuePlacement: async (tx: Tx, t: Tenant, call: VoiceCallsTable) => {
        await enqueue(tx, this.k.clock, this.placeJob, { workspace_id: t.workspaceId, mode: t.mode, call_id: call.id })
      },
      end: async (call: VoiceCallsTable) => {
        try {
          await adapter.updateCall(call.carrier_sid!, { status: 'completed' })
        } catch (err) {
          throw carrierProblem(err)
        }
      },
      transfer: async (call: VoiceCallsTable, transfer: CallCarrierTransfer, target: string | null) => {
        const announcement = transfer.announcement ?? 'Please hold while I transfer your call.'
        // Warm: Twilio whispers the announcement to the target when it answers; cold: the caller hears it.
        const twiml = response(...(transfer.mode === 'cold' ? [say(announcement)] : []), dial(target!, { callerId: call.from_number }))
        try {
          await adapter.updateCall(call.carrier_sid!, { twiml })
        } catch (err) {
          throw carrierProblem(err)
        }
      },
    }
  }

  /**
   * Places a queued call. Twilio has no idempotency key for calls, so the job first marks the call as being
   * placed; a retry that finds the mark (the worker died after asking Twilio) does not call again — the
   * status callback, which carries our call id, binds the CallSid if the call exists. A definite refusal
   * (4xx) fails the call with Twilio's message.
   */
  private placement(): JobDefinition<PlacePayload> {
    return defineJob<PlacePayload>({
      name: 'voice.twilio-place',
      retrySchedule: PLACE_RETRIES,
      run: async (p, ctx) => {
        const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
        const call = await repo.findCall(this.k.db, tenant, p.call_id)
        if (!call || call.status !== 'queued') return
        if (p.check) {
          // Still only marked long after an attempt whose outcome was unknown: no callback ever came.
          if (call.carrier_sid === placing(call.id)) await this.fail(tenant, call, 'Twilio never confirmed the call (its outcome is unknown); it was not placed again.')
          return
        }
        if (call.carrier_sid) return
        const adapter = await this.adapter(tenant)
        if (!adapter) return this.fail(tenant, call, 'The workspace has no Twilio account configured any more.')
        if (!(await repo.updateCallIf(this.k.db, tenant, call.id, call, { carrier_sid: placing(call.id) }))) return
        const base = `${this.k.config.publicUrl}${CALLBACK_BASE}`
        try {
          const placed = await adapter.createCall({
            to: call.to_number,
            from: call.from_number,
            twiml: await callTwiml(this.k, this.services, tenant, call, base),
            statusCallback: `${base}/status?call=${call.id}`,
            record: call.record === 1,
            recordingStatusCallback: `${base}/recording?call=${call.id}`,
          })
          if (await repo.updateCallIf(this.k.db, tenant, call.id, { status: 'queued', plan_seq: call.plan_seq }, { carrier_sid: placed.sid })) return
          // Hung up through the API while Twilio was placing it: keep its sid, and end it there too.
          const now = await repo.findCall(this.k.db, tenant, call.id)
          if (now && now.carrier_sid?.startsWith('placing:')) await repo.updateCallIf(this.k.db, tenant, call.id, now, { carrier_sid: placed.sid })
          if (now?.end_reason === ENDED_BY_API) await this.endAtTwilio(tenant, placed.sid)
        } catch (err) {
          if (!(err instanceof CarrierError)) throw err
          // Refused before the call existed (4xx, 429): the mark goes; a 5xx or timeout may have placed it.
          const definite = err.status !== null && err.status < 500
          if (definite) await repo.updateCallIf(this.k.db, tenant, call.id, { status: 'queued', plan_seq: call.plan_seq }, { carrier_sid: null })
          if (definite && err.retryable && ctx.attempt <= PLACE_RETRIES.length) throw err
          if (definite) return this.fail(tenant, { ...call, carrier_sid: null }, err.message)
          this.k.log.warn({ call: call.id, err: err.message }, 'Twilio placement outcome unknown; waiting for its status callback')
          await this.k.transaction(sideOwner(tenant), (tx) =>
            enqueue(tx, this.k.clock, this.placeJob, { ...p, check: true }, { runAt: new Date(this.k.clock.now().getTime() + UNKNOWN_OUTCOME_WAIT_MS) }),
          )
        }
      },
    })
  }

  /** A recording Twilio announced: fetched with the account's credentials, stored, marked ready; transcribed next. */
  private recordingFetch(): JobDefinition<PlacePayload> {
    return defineJob<PlacePayload>({
      name: 'voice.twilio-recording',
      retrySchedule: PLACE_RETRIES,
      run: async (p, ctx) => {
        const tenant: Tenant = inheritAudit(ctx, { workspaceId: p.workspace_id, mode: p.mode })
        const call = await repo.findCall(this.k.db, tenant, p.call_id)
        if (!call || call.recording_status !== 'processing' || !call.recording_url) return
        const adapter = await this.adapter(tenant)
        let wav: Buffer
        try {
          if (!adapter) throw new CarrierError('The workspace has no Twilio account configured any more.', false)
          wav = await adapter.fetchRecording(call.recording_url)
          wavInfo(wav)
        } catch (err) {
          if (err instanceof CarrierError && err.retryable && ctx.attempt <= PLACE_RETRIES.length) throw err
          await repo.updateMediaIf(this.k.db, tenant, call.id, { recording_status: 'processing' }, { recording_status: 'failed', recording_reason: (err as Error).message.slice(0, 500) })
          return
        }
        const key = recordingKey(tenant, call.id)
        const { size } = await this.k.blobs.put(key, wav, { contentType: 'audio/wav' })
        await this.k.transaction(sideOwner(tenant), async (tx) => {
          const patch = { recording_status: 'ready' as const, recording_key: key, recording_duration_ms: wavInfo(wav).durationMs, recording_size: size, recording_reason: null }
          if (!(await repo.updateMediaIf(tx, tenant, call.id, { recording_status: 'processing' }, patch))) return
          await this.k.events.emit(tx, tenant, 'call.recording.ready', recordingView({ ...call, ...patch }, apiBase(this.k, tenant)))
          const now = await repo.findCall(tx, tenant, call.id)
          if (now?.transcript_status === 'processing') await this.voice.lifecycle.queueTranscription(tx, tenant, call.id)
        })
      },
    })
  }

  /** Ends a call at Twilio that we have ended already; a failure is logged (Twilio ends it at its own time limit). */
  async endAtTwilio(tenant: Tenant, sid: string): Promise<void> {
    try {
      await (await this.adapter(tenant))?.updateCall(sid, { status: 'completed' })
    } catch (err) {
      this.k.log.warn({ sid, err: (err as Error).message }, 'a call hung up through the API could not be ended at Twilio')
    }
  }

  private async fail(tenant: Tenant, call: VoiceCallsTable, reason: string): Promise<void> {
    await this.k.transaction(sideOwner(tenant), (tx) => this.voice.lifecycle.move(tx, tenant, call, 'failed', this.k.clock.now(), { end_reason: reason.slice(0, 500) }))
  }
}
