import { createRequire } from 'node:module'
import { createServer, type IncomingHttpHeaders, type Server } from 'node:http'
import { decodeTraceRequest } from './otlp-protobuf.testkit.js'

/** A span as an OTLP/HTTP JSON export carries it (ids in hex), with its attributes flattened. */
export interface ReceivedSpan {
  traceId: string
  spanId: string
  parentSpanId: string
  name: string
  kind: number
  attributes: Record<string, unknown>
  status: { code?: number }
}

/**
 * A local OTLP/HTTP receiver on 127.0.0.1: accepts `POST /v1/traces` with a JSON or protobuf body (what the
 * service's exporters send), keeps each raw body (to search for what must never be exported) and the spans.
 * Test support only: never imported by the service.
 */
export async function startOtlpReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; bodies: string[]; headers: IncomingHttpHeaders[]; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = []
  const bodies: string[] = []
  const headers: IncomingHttpHeaders[] = []
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      const type = String(req.headers['content-type'])
      if (req.method !== 'POST' || req.url !== '/v1/traces' || !(type.startsWith('application/json') || type.startsWith('application/x-protobuf'))) {
        res.writeHead(415).end()
        return
      }
      headers.push(req.headers)
      if (type.startsWith('application/x-protobuf')) {
        const raw = Buffer.concat(chunks)
        // Kept as text too: strings travel as UTF-8 in protobuf, so a search of the body still finds them.
        bodies.push(raw.toString('latin1'))
        spans.push(...decodeTraceRequest(raw))
        res.writeHead(200, { 'content-type': 'application/x-protobuf' }).end()
        return
      }
      const body = Buffer.concat(chunks).toString('utf8')
      bodies.push(body)
      const doc = JSON.parse(body) as { resourceSpans: { scopeSpans: { spans: any[] }[] }[] }
      for (const rs of doc.resourceSpans)
        for (const ss of rs.scopeSpans)
          for (const s of ss.spans) {
            const attributes: Record<string, unknown> = {}
            for (const a of s.attributes ?? []) attributes[a.key] = Object.values(a.value ?? {})[0]
            spans.push({ traceId: s.traceId, spanId: s.spanId, parentSpanId: s.parentSpanId ?? '', name: s.name, kind: s.kind, attributes, status: s.status ?? {} })
          }
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}')
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const { port } = server.address() as { port: number }
  return {
    url: `http://127.0.0.1:${port}`,
    spans,
    bodies,
    headers,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  }
}

/** Whether this process has loaded the OpenTelemetry SDK (its CommonJS modules are in require's cache). */
export function sdkLoaded(): boolean {
  const cache = createRequire(import.meta.url).cache
  return Object.keys(cache).some((p) => /@opentelemetry[\\/](sdk-trace|exporter-trace-otlp)/.test(p))
}
