import assert from 'node:assert/strict'
import { after, describe, it } from 'node:test'
import pino from 'pino'
import { AppError } from '../errors.js'
import { createTranscriber, type Transcriber } from './transcribe.js'
import { startTranscriptionServer, type TranscriptionReply } from './transcribe.testkit.js'

const log = pino({ level: 'silent' })
const WAV = Buffer.concat([Buffer.from('RIFF\x24\x08\x00\x00WAVEfmt \x10\x00\x00\x00', 'latin1'), Buffer.alloc(2048, 3)])

async function appError(p: Promise<unknown>): Promise<AppError> {
  try {
    await p
  } catch (err) {
    assert.ok(err instanceof AppError, `expected an AppError, got ${String(err)}`)
    return err
  }
  assert.fail('expected an AppError')
}

describe('kernel ai: transcription through an OpenAI-compatible /audio/transcriptions', () => {
  let reply: TranscriptionReply = { segments: [] }
  const servers: Array<{ close(): Promise<void> }> = []
  after(() => Promise.all(servers.map((s) => s.close())))
  const start = async () => {
    const s = await startTranscriptionServer(() => reply)
    servers.push(s)
    return s
  }
  const transcriber = (baseUrl: string, timeoutMs = 5000) => createTranscriber({ baseUrl, apiKey: 'sk-test', model: 'whisper-1', timeoutMs }, log) as Transcriber

  it('is null when TRANSCRIPTION_* is not configured', () => {
    assert.equal(createTranscriber(null, log), null)
  })

  it('uploads the WAV as multipart with model, verbose_json and segment timestamps; maps the segments', async () => {
    const stt = await start()
    reply = {
      language: 'english',
      duration: 7.25,
      segments: [
        { start: 0, end: 2.5, text: ' Hello, this is Ada from Acme.', avg_logprob: -0.105 },
        { start: 2.5, end: 2.9, text: '   ' },
        { start: 3.04, end: 7.25, text: ' I would like a demo.', avg_logprob: 0.3 },
      ],
    }
    const out = await transcriber(stt.baseUrl).transcribe(WAV, { filename: 'vc_01J.wav', language: 'en-US' })
    assert.deepEqual(out, {
      language: 'en',
      durationMs: 7250,
      segments: [
        { startMs: 0, endMs: 2500, text: 'Hello, this is Ada from Acme.', confidence: 0.9 },
        { startMs: 3040, endMs: 7250, text: 'I would like a demo.', confidence: 1 },
      ],
    })
    const up = stt.requests[0]
    assert.equal(up.headers.authorization, 'Bearer sk-test')
    assert.match(String(up.headers['content-type']), /^multipart\/form-data; boundary=/)
    assert.deepEqual(up.fields, { model: ['whisper-1'], response_format: ['verbose_json'], 'timestamp_granularities[]': ['segment'], language: ['en'] })
    assert.deepEqual({ ...up.file, data: undefined }, { filename: 'vc_01J.wav', contentType: 'audio/wav', data: undefined })
    assert.deepEqual(up.file!.data, WAV)
  })

  it('reads what other servers answer: a language code, no confidence, text without segments', async () => {
    const stt = await start()
    reply = { json: { language: 'de', duration: '3.5', segments: [{ start: 0, end: 3.5, text: 'Guten Tag.' }] } }
    assert.deepEqual(await transcriber(stt.baseUrl).transcribe(WAV, { filename: 'a.wav' }), {
      language: 'de',
      durationMs: 3500,
      segments: [{ startMs: 0, endMs: 3500, text: 'Guten Tag.', confidence: null }],
    })
    assert.equal(stt.requests[0].fields.language, undefined, 'no hint, no language field')
    reply = { json: { text: ' Bonjour. ', language: 'french' } }
    assert.deepEqual(await transcriber(stt.baseUrl).transcribe(WAV, { filename: 'a.wav' }), {
      language: 'fr',
      durationMs: null,
      segments: [{ startMs: 0, endMs: 0, text: 'Bonjour.', confidence: null }],
    })
    reply = { segments: [], language: 'greek', duration: 0 }
    assert.deepEqual(await transcriber(stt.baseUrl).transcribe(WAV, { filename: 'a.wav' }), { language: 'el', durationMs: 0, segments: [] })
  })

  it('provider failures become the AI problems: 500 → ai_provider_error, 429 → ai_provider_unavailable, silence → ai_provider_timeout', async () => {
    const stt = await start()
    reply = { status: 500, error: 'boom' }
    const failed = await appError(transcriber(stt.baseUrl).transcribe(WAV, { filename: 'a.wav' }))
    assert.deepEqual([failed.code, failed.status], ['ai_provider_error', 502])
    reply = { status: 429, error: 'slow down' }
    const busy = await appError(transcriber(stt.baseUrl).transcribe(WAV, { filename: 'a.wav' }))
    assert.deepEqual([busy.code, busy.status, busy.headers['Retry-After']], ['ai_provider_unavailable', 503, '5'])
    reply = { json: [1, 2] }
    assert.equal((await appError(transcriber(stt.baseUrl).transcribe(WAV, { filename: 'a.wav' }))).code, 'ai_provider_error')

    reply = { hang: true }
    const began = Date.now()
    const slow = await appError(transcriber(stt.baseUrl, 300).transcribe(WAV, { filename: 'a.wav' }))
    assert.deepEqual([slow.code, slow.status], ['ai_provider_timeout', 504])
    assert.ok(Date.now() - began < 3000)
    reply = { delayMs: 1000, segments: [{ start: 0, end: 1, text: 'late' }] }
    assert.equal((await appError(transcriber(stt.baseUrl, 300).transcribe(WAV, { filename: 'a.wav' }))).code, 'ai_provider_timeout')
  })

  it('an unreachable server is ai_provider_unavailable', async () => {
    const gone = await startTranscriptionServer(() => ({ segments: [] }))
    await gone.close()
    const e = await appError(transcriber(gone.baseUrl).transcribe(WAV, { filename: 'a.wav' }))
    assert.deepEqual([e.code, e.status], ['ai_provider_unavailable', 503])
  })
})
