// Test support for the AI tests (not a test file itself): an OpenAI-compatible chat-completions server on
// 127.0.0.1 that answers each request as the test scripts it (text, tool calls, errors, silence).
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ChatReply = (
  | { text: string }
  | { toolCalls: { id?: string; name: string; arguments: string }[] }
  | { status: number; error: string }
  | { hang: true }
) & { /** Answer after this long (a slow model). */ delayMs?: number }

export async function startChatServer(script: (body: any, n: number) => ChatReply) {
  const requests: any[] = []
  const server = createServer((req, res) => {
    let raw = ''
    req.on('data', (c) => (raw += c))
    req.on('end', () => {
      const body = raw ? JSON.parse(raw) : null
      requests.push(body)
      if (req.method !== 'POST' || req.url !== '/v1/chat/completions') {
        res.writeHead(404, { 'content-type': 'application/json' }).end('{"error":{"message":"not found"}}')
        return
      }
      const reply = script(body, requests.length)
      if ('hang' in reply) return
      if ('status' in reply) {
        res.writeHead(reply.status, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: reply.error, type: 'server_error' } }))
        return
      }
      const answer = () => {
        const message =
          'text' in reply
            ? { role: 'assistant', content: reply.text }
            : {
                role: 'assistant',
                content: null,
                tool_calls: reply.toolCalls.map((c, i) => ({ id: c.id ?? `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: c.arguments } })),
              }
        res.writeHead(200, { 'content-type': 'application/json' }).end(
          JSON.stringify({
            id: `chatcmpl-${requests.length}`,
            object: 'chat.completion',
            created: Math.floor(Date.now() / 1000),
            model: body.model,
            choices: [{ index: 0, message, finish_reason: 'text' in reply ? 'stop' : 'tool_calls' }],
            usage: { prompt_tokens: 10, completion_tokens: 5, total_tokens: 15 },
          }),
        )
      }
      if (reply.delayMs) setTimeout(() => !res.destroyed && answer(), reply.delayMs)
      else answer()
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
