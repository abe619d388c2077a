import type { Logger } from 'pino'
import type { Config } from '../../config.js'
import { AppError } from '../errors.js'
import { loadOpenAiClient, providerProblem, type LoadedOpenAi } from './openai-client.js'
import { languageCode } from './transcribe-language.js'

// The seam for speech to text: any OpenAI-compatible POST /audio/transcriptions (OpenAI's whisper-1,
// faster-whisper servers, whisper.cpp, vLLM, …) through the official client, loaded with import() on the
// first recording so the package stays out of processes that never transcribe. Like the text engine:
// retries off, one deadline (TRANSCRIPTION_TIMEOUT_MS) over the whole exchange, failures as 502/503/504
// problems. The operator configures the server, so it is not put through the outbound (SSRF) policy.

export interface TranscriptSegment {
  startMs: number
  endMs: number
  text: string
  /** exp(avg_logprob) of the segment's tokens, 0..1; null when the server does not say. */
  confidence: number | null
}

export interface Transcription {
  /** ISO 639-1 (else 639-3) code of the spoken language, null when unknown. */
  language: string | null
  durationMs: number | null
  segments: TranscriptSegment[]
}

export interface TranscribeOptions {
  /** Its extension tells the server the format (`call.wav`). */
  filename: string
  /** A hint (BCP 47 or ISO 639-1): only the primary language is sent. */
  language?: string
}

export interface Transcriber {
  readonly model: string
  transcribe(audio: Buffer, opts: TranscribeOptions): Promise<Transcription>
}

type TranscriptionConfig = NonNullable<Config['transcription']>

/** Null when TRANSCRIPTION_* is not configured (recordings are then kept untranscribed). */
export function createTranscriber(config: Config['transcription'], log: Logger): Transcriber | null {
  return config ? new OpenAiTranscriber(config, log) : null
}

const MIME: Record<string, string> = { wav: 'audio/wav', mp3: 'audio/mpeg', m4a: 'audio/mp4', ogg: 'audio/ogg', webm: 'audio/webm', flac: 'audio/flac' }

class OpenAiTranscriber implements Transcriber {
  readonly model: string
  private loaded: Promise<LoadedOpenAi> | null = null

  constructor(
    private readonly config: TranscriptionConfig,
    private readonly log: Logger,
  ) {
    this.model = config.model
  }

  private load(): Promise<LoadedOpenAi> {
    this.loaded ??= loadOpenAiClient(this.config)
    return this.loaded
  }

  async transcribe(audio: Buffer, opts: TranscribeOptions): Promise<Transcription> {
    const { mod, client } = await this.load()
    const ext = /\.([a-z0-9]+)$/i.exec(opts.filename)?.[1]?.toLowerCase() ?? ''
    const file = await mod.toFile(audio, opts.filename, { type: MIME[ext] ?? 'application/octet-stream' })
    const language = opts.language?.split(/[-_]/)[0]?.toLowerCase()
    // The client's own timeout stops at the response headers; this deadline also bounds the upload and the body.
    const deadline = AbortSignal.timeout(this.config.timeoutMs)
    let answer: unknown
    try {
      answer = await client.audio.transcriptions.create(
        {
          file,
          model: this.model,
          response_format: 'verbose_json',
          timestamp_granularities: ['segment'],
          ...(language ? { language } : {}),
        },
        { signal: deadline, timeout: this.config.timeoutMs, maxRetries: 0 },
      )
    } catch (err) {
      throw this.toAppError(mod, err, deadline)
    }
    return readVerboseJson(answer)
  }

  private toAppError(mod: typeof import('openai'), err: unknown, deadline: AbortSignal): AppError {
    this.log.warn({ err, model: this.model }, 'transcription provider call failed')
    return providerProblem(mod, err, deadline, { name: 'transcription', env: 'TRANSCRIPTION', timeoutMs: this.config.timeoutMs })
  }
}

const finite = (v: unknown): number | null => {
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v
  return typeof n === 'number' && Number.isFinite(n) ? n : null
}

const ms = (seconds: number) => Math.max(0, Math.round(seconds * 1000))

/** OpenAI's verbose_json; a server that ignores the segment granularity gets its text as one segment. */
export async function readVerboseJson(answer: unknown): Promise<Transcription> {
  if (!answer || typeof answer !== 'object' || Array.isArray(answer)) {
    throw new AppError('ai_provider_error', 'The transcription provider answered without a verbose_json object.')
  }
  const a = answer as { language?: unknown; duration?: unknown; text?: unknown; segments?: unknown }
  const duration = finite(a.duration)
  const durationMs = duration === null ? null : ms(duration)
  const segments: TranscriptSegment[] = []
  if (Array.isArray(a.segments)) {
    for (const s of a.segments as Array<Record<string, unknown>>) {
      const text = typeof s?.text === 'string' ? s.text.trim() : ''
      const start = finite(s?.start)
      const end = finite(s?.end)
      if (text === '' || start === null || end === null) continue
      const logprob = finite(s.avg_logprob)
      const confidence = logprob === null ? null : Math.round(Math.min(1, Math.max(0, Math.exp(logprob))) * 1000) / 1000
      segments.push({ startMs: ms(start), endMs: Math.max(ms(start), ms(end)), text, confidence })
    }
  } else if (typeof a.text === 'string' && a.text.trim() !== '') {
    segments.push({ startMs: 0, endMs: durationMs ?? 0, text: a.text.trim(), confidence: null })
  }
  return { language: await languageCode(a.language), durationMs, segments }
}
