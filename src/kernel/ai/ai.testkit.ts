// Test support for the AI tests (not a test file itself): an OpenAI-compatible chat-completions server on
// 127.0.0.1 that answers each request as the test scripts it (text, tool calls, errors, silence).
import { createServer, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'

export type ChatReply = ({ text: string } | { toolCalls: { id?: string; name: string; arguments: string }[] } | { status: number; error: string } | { hang: true }) & {
  /** Answer after this long (a slow model). */
  delayMs?: number
  /** With `stream: true`: this long between the chunks (a model writing as it thinks). */
  chunkDelayMs?: number
  /** With `stream: true`: the connection breaks after this many pieces (a model or network failing mid-answer). */
  breakAfter?: number
}

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
        if (body.stream) return void streamAnswer(res, body, reply, `chatcmpl-${requests.length}`, reply.chunkDelayMs ?? 0, reply.breakAfter)
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

/**
 * A `stream: true` request, as OpenAI sends it: Server-Sent Events of `chat.completion.chunk` — a text a
 * word at a time (each word a delta), tool calls in one delta each — then a chunk with the finish reason
 * and `data: [DONE]`.
 */
async function streamAnswer(
  res: ServerResponse,
  body: any,
  reply: { text: string } | { toolCalls: { id?: string; name: string; arguments: string }[] },
  id: string,
  pauseMs: number,
  breakAfter = Infinity,
): Promise<void> {
  const chunk = (delta: Record<string, unknown>, finish: string | null) =>
    `data: ${JSON.stringify({ id, object: 'chat.completion.chunk', created: Math.floor(Date.now() / 1000), model: body.model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`
  const pieces =
    'text' in reply
      ? (reply.text.match(/\S+\s*/g) ?? []).map((piece) => chunk({ content: piece }, null))
      : reply.toolCalls.map((c, i) => chunk({ tool_calls: [{ index: i, id: c.id ?? `call_${i + 1}`, type: 'function', function: { name: c.name, arguments: c.arguments } }] }, null))
  res.writeHead(200, { 'content-type': 'text/event-stream' })
  res.write(chunk({ role: 'assistant', content: '' }, null))
  for (const [i, piece] of pieces.entries()) {
    if (pauseMs) await new Promise((r) => setTimeout(r, pauseMs))
    if (res.destroyed) return
    if (i === breakAfter) return void res.destroy()
    res.write(piece)
  }
  res.write(chunk({}, 'text' in reply ? 'stop' : 'tool_calls'))
  res.end('data: [DONE]\n\n')
}
