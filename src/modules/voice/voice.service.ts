import { countPerDay } from '../../kernel/db/count-per-day.js'
import type { JobDefinition } from '../../kernel/jobs/jobs.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { ModuleHealth } from '../../kernel/module.js'
import type { Services } from '../../kernel/services.js'
import type { Tenant } from '../../kernel/tenant.js'
import { CallLifecycle, type RenderPayload } from './call-lifecycle.js'
import { CallHangupService } from './call-hangup.service.js'
import { CallMediaService } from './call-media.service.js'
import { CallTransferService } from './call-transfer.service.js'
import { createTranscriber } from '../../kernel/ai/transcribe.js'
import { renderRecordingJob } from './jobs/render-recording.job.js'
import { transcribeRecordingJob } from './jobs/transcribe-recording.job.js'
import { simCallStepJob, type SimStepPayload } from './jobs/sim-call-step.job.js'
import type { VoiceCarriers } from './voice-carriers.js'
import { VoiceCallsService } from './voice-calls.service.js'
import { VoiceNumbersService } from './voice-numbers.service.js'
import { VoiceTokensService } from './voice-tokens.service.js'
import * as repo from './voice.repository.js'
import { VoiceSpeech } from './voice.speech.js'

/** `services.voice`: one service per resource, e.g. `services.voice.calls.create(principal, body)`. */
export class VoiceService {
  readonly speech: VoiceSpeech
  readonly lifecycle: CallLifecycle
  readonly numbers: VoiceNumbersService
  readonly calls: VoiceCallsService
  readonly transfers: CallTransferService
  readonly hangups: CallHangupService
  readonly media: CallMediaService
  readonly tokens: VoiceTokensService
  readonly simStepJob: JobDefinition<SimStepPayload>
  readonly renderJob: JobDefinition<RenderPayload>
  readonly transcribeJob: JobDefinition<RenderPayload>

  constructor(
    private readonly k: Kernel,
    services: Services,
    readonly carriers: VoiceCarriers,
  ) {
    this.speech = new VoiceSpeech(k.config.voice.speechCommand)
    this.lifecycle = new CallLifecycle(
      k,
      services,
      () => this.renderJob,
      () => this.transcribeJob,
      () => this.speech.status(),
    )
    this.transcribeJob = transcribeRecordingJob(k, createTranscriber(k.config.transcription, k.log), this.lifecycle)
    this.simStepJob = simCallStepJob(k, services, this.lifecycle, this.speech, () => this.simStepJob)
    this.renderJob = renderRecordingJob(k, this.speech)
    this.numbers = new VoiceNumbersService(k, services, carriers)
    this.calls = new VoiceCallsService(k, services, carriers, () => this.simStepJob)
    this.transfers = new CallTransferService(k, services, carriers, this.speech, () => this.simStepJob)
    this.hangups = new CallHangupService(k, carriers, this.lifecycle)
    this.media = new CallMediaService(k)
    this.tokens = new VoiceTokensService(k)
  }

  /** The tables answer; the carrier and the speech synthesiser say what they can do. */
  async health(): Promise<ModuleHealth> {
    await repo.probe(this.k.db)
    const speech = await this.speech.status()
    return {
      status: 'ok',
      carrier: 'simulated (sandbox, and live without Twilio); twilio where a workspace configured it',
      speech: speech.available ? `espeak-ng ${speech.version}` : 'unavailable',
      ...(speech.available ? {} : { detail: `Recordings of simulated calls are unavailable: ${speech.reason}` }),
      transcription: this.k.config.transcription ? 'configured' : 'not configured',
    }
  }
}

/** The module's usage hook: calls placed or received, and answered minutes (rounded up per call), per UTC day. */
export async function voiceUsage(k: Kernel, tenant: Tenant, from: string, to: string): Promise<{ day: string; metric: string; count: number }[]> {
  const calls = await countPerDay(k.db, tenant, 'voice_calls', from, to)
  const minutes = await countPerDay(k.db, tenant, 'voice_calls', from, to, { at: 'ended_at', sum: ['billed_minutes'] })
  return [...calls.map((r) => ({ day: r.day, metric: 'voice_calls', count: r.count })), ...minutes.filter((r) => r.count > 0).map((r) => ({ day: r.day, metric: 'voice_minutes', count: r.count }))]
}

declare module '../../kernel/services.js' {
  interface Services {
    voice: VoiceService
  }
}
