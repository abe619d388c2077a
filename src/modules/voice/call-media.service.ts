import type { FastifyReply, FastifyRequest } from 'fastify'
import { AppError } from '../../kernel/errors.js'
import { sendBlob } from '../../kernel/http/send-blob.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Tenant } from '../../kernel/tenant.js'
import type { VoiceRecordingT, VoiceTranscriptT } from './voice.schemas.js'
import { apiBase, callOr404 } from './voice.shared.js'
import type { VoiceCallsTable } from './voice.tables.js'
import { recordingView, transcriptView } from './voice.views.js'

/** Whether a request asks for the audio: `?format=wav`, or an Accept preferring audio over JSON. */
export function wantsAudio(request: FastifyRequest, format: 'json' | 'wav' | undefined): boolean {
  if (format) return format === 'wav'
  const accept = request.headers.accept ?? ''
  return /audio\/(wav|x-wav|\*)/i.test(accept) && !/application\/json/i.test(accept)
}

/** A call's recording (metadata or audio, with ranges) and its transcript. */
export class CallMediaService {
  constructor(private readonly k: Kernel) {}

  /**
   * 404 `recording_not_found` for a call not recorded, or before its recording exists (not answered yet,
   * or never answered); otherwise the metadata with its status. The audio only once `ready` (409
   * `recording_not_ready` with the status and reason before), streamed from the blob store with Range.
   */
  async recording(tenant: Tenant, id: string, audio: { request: FastifyRequest; reply: FastifyReply } | null): Promise<VoiceRecordingT | FastifyReply> {
    const call = await callOr404(this.k.db, tenant, id)
    this.assertExists(call)
    const view = recordingView(call, apiBase(this.k, tenant))
    if (!audio) return view
    if (call.recording_status !== 'ready') {
      throw new AppError('recording_not_ready', `The recording of call ${id} is ${view.status}${call.recording_reason ? `: ${call.recording_reason}` : '.'}`, {
        recording_status: view.status,
        ...(view.status === 'processing' ? { headers: { 'Retry-After': '5' } } : {}),
      })
    }
    audio.reply.header('Cache-Control', 'private, max-age=3600')
    return sendBlob(audio.request, audio.reply, this.k.blobs, call.recording_key!, { contentType: 'audio/wav', filename: `${call.id}.wav` })
  }

  async transcript(tenant: Tenant, id: string): Promise<VoiceTranscriptT> {
    return transcriptView(await callOr404(this.k.db, tenant, id))
  }

  private assertExists(call: VoiceCallsTable): void {
    if (call.record !== 1) throw new AppError('recording_not_found', `Call ${call.id} was not recorded (create it with record: true).`)
    if (call.recording_status === 'none') throw new AppError('recording_not_found', `Call ${call.id} has no recording: ${call.recording_reason ?? 'it was not answered.'}`)
    if (call.recording_status === 'pending') throw new AppError('recording_not_found', `Call ${call.id} has no recording yet: it starts when the call is answered (status ${call.status}).`)
  }
}
