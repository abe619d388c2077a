// Test support for the tool tests (not a test file itself): a real tool server on 127.0.0.1.
import { createServer, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

export interface ToolRequestSeen {
  method: string
  url: string
  headers: IncomingHttpHeaders
  body: string
}

export interface ToolAnswer {
  status?: number
  headers?: Record<string, string>
  body?: string
  /** Never answer (the test closes the server). */
  hang?: boolean
}

export async function startToolServer(answer: (r: ToolRequestSeen, n: number) => ToolAnswer | Promise<ToolAnswer> = () => ({ status: 200, body: '{"ok":true}' })) {
  const requests: ToolRequestSeen[] = []
  const server = createServer((req, res) => {
    const chunks: Buffer[] = []
    req.on('data', (c: Buffer) => chunks.push(c))
    req.on('end', () => {
      // A failure here (a test's answer that throws) answers 500, which the test sees, not an unhandled rejection.
      void (async () => {
        const seen = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') }
        requests.push(seen)
        const out = await answer(seen, requests.length)
        if (out.hang) return
        res.writeHead(out.status ?? 200, { 'content-type': 'application/json', ...out.headers })
        res.end(out.body ?? '')
      })().catch((err: unknown) => {
        if (!res.headersSent) res.writeHead(500, { 'content-type': 'text/plain' })
        res.end(String(err))
      })
    })
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const port = (server.address() as AddressInfo).port
  return {
    url: `http://127.0.0.1:${port}`,
    port,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}
