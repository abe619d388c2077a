// Test support (not a test file itself): an OpenAI-compatible POST /v1/audio/transcriptions on 127.0.0.1.
// It parses the multipart upload (undici's FormData parser, through the global Response) and answers as
// the test scripts it: verbose_json built from segments, a raw body, an error, or silence.
//
//   const stt = await startTranscriptionServer(() => ({ language: 'english', segments: [{ start: 0, end: 1.5, text: 'Hello', avg_logprob: -0.1 }] }))
//   createTranscriber({ baseUrl: stt.baseUrl, apiKey: 'k', model: 'whisper-1', timeoutMs: 5000 }, log)
//   stt.requests[0].file.data, stt.requests[0].fields.model   // what was uploaded
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface TranscriptionUpload {
  headers: IncomingHttpHeaders
  /** Every text field by name (repeated names keep every value): model, response_format, timestamp_granularities[], language. */
  fields: Record<string, string[]>
  file: { filename: string; contentType: string; data: Buffer } | null
}

export interface ScriptedSegment {
  start: number
  end: number
  text: string
  avg_logprob?: number
}

export type TranscriptionReply = ({ segments: ScriptedSegment[]; language?: string; duration?: number } | { json: unknown } | { status: number; error: string } | { hang: true }) & {
  /** Answer after this long (a slow model). */ delayMs?: number
}

/** OpenAI's verbose_json for these segments. */
export function verboseJson(r: { segments: ScriptedSegment[]; language?: string; duration?: number }) {
  const duration = r.duration ?? r.segments.reduce((max, s) => Math.max(max, s.end), 0)
  return {
    task: 'transcribe',
    language: r.language ?? 'english',
    duration,
    text: r.segments.map((s) => s.text.trim()).join(' '),
    segments: r.segments.map((s, id) => ({
      id,
      seek: 0,
      start: s.start,
      end: s.end,
      text: s.text,
      tokens: [50364, 2425, 50414],
      temperature: 0,
      avg_logprob: s.avg_logprob ?? -0.25,
      compression_ratio: 1.1,
      no_speech_prob: 0.01,
    })),
    usage: { type: 'duration', seconds: Math.ceil(duration) },
  }
}

export async function startTranscriptionServer(handler: (upload: TranscriptionUpload, n: number) => TranscriptionReply | Promise<TranscriptionReply>) {
  const requests: TranscriptionUpload[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      // A failure here (a test's answer that throws) answers 500, which the test sees, not an unhandled rejection.
      void (async () => {
        const json = (status: number, body: unknown) => res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body))
        if (req.method !== 'POST' || req.url !== '/v1/audio/transcriptions') return json(404, { error: { message: 'not found', type: 'invalid_request_error' } })
        let form: FormData
        try {
          form = await new Response(Buffer.concat(chunks), { headers: { 'content-type': req.headers['content-type'] ?? '' } }).formData()
        } catch {
          return json(400, { error: { message: 'Could not parse multipart form', type: 'invalid_request_error' } })
        }
        const upload: TranscriptionUpload = { headers: req.headers, fields: {}, file: null }
        for (const [name, value] of form.entries()) {
          if (typeof value === 'string') (upload.fields[name] ??= []).push(value)
          else if (name === 'file') upload.file = { filename: value.name, contentType: value.type, data: Buffer.from(await value.arrayBuffer()) }
        }
        requests.push(upload)
        const reply = await handler(upload, requests.length)
        if ('hang' in reply) return
        const answer = () => {
          if (res.destroyed) return
          if ('status' in reply) return json(reply.status, { error: { message: reply.error, type: 'server_error', param: null, code: null } })
          json(200, 'json' in reply ? reply.json : verboseJson(reply))
        }
        if (reply.delayMs) setTimeout(answer, reply.delayMs)
        else answer()
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(err))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    async close() {
      server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
    },
  }
}
