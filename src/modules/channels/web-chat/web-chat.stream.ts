import type { FastifyReply, FastifyRequest } from 'fastify'
import type { FeedEvent } from '../../../kernel/events/event-feed.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { MessageT } from '../../inbox/inbox.schemas.js'
import { DRAFT_SIGNAL, type DraftSignal } from './web-chat.drafts.js'
import { visitorMessage, type VisitorSession, type WebChatService } from './web-chat.service.js'

/** A comment this often keeps proxies from closing an idle stream. */
const HEARTBEAT_MS = 15_000
/** Conversation ids remembered as not the visitor's (each costs one indexed read the first time). */
const MAX_FOREIGN = 2_000
/** The visitor streams one server has open: ended before it waits for in-flight requests (they never finish). */
export class VisitorStreams {
  readonly open = new Set<() => void>()

  close(): void {
    for (const end of [...this.open]) end()
  }
}

const CONVERSATION_EVENTS = new Set(['conversation.updated', 'conversation.assigned', 'conversation.resolved', 'conversation.reopened'])

/**
 * The visitor's own conversation, live (text/event-stream): `message` (a visitor, bot or agent message,
 * never a private note), `state` (hand-off to a person, resolved), `typing` (an agent is typing), `read` (the team
 * read the conversation up to a message: web-chat-read-receipts.ts), `deleted` (the conversation was deleted:
 * retention, an erasure), `draft`
 * (the bot's reply while it is written, web-chat.drafts.ts: losable, the `message` is the answer). It reads
 * the workspace's event feed (kernel/events/event-feed.ts, one tail per process) and sends only what belongs
 * to a conversation of this visitor on this channel. No resume: on reconnect the widget reads its history
 * again (GET …/messages) and drops the messages it has.
 */
export function openVisitorStream(k: Kernel, streams: VisitorStreams, web: WebChatService, s: VisitorSession, request: FastifyRequest, reply: FastifyReply): void {
  const open = streams.open
  reply.hijack()
  const raw = reply.raw
  raw.writeHead(200, {
    'Content-Type': 'text/event-stream; charset=utf-8',
    'Cache-Control': 'no-cache, no-transform',
    'X-Accel-Buffering': 'no',
    'X-Request-ID': String(request.id),
    'Access-Control-Allow-Origin': String(reply.getHeader('access-control-allow-origin') ?? ''),
    Vary: 'Origin',
  })
  const write = (event: string, data: unknown) => {
    if (!raw.writableEnded) raw.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`)
  }
  raw.write('retry: 2000\n\n')
  const mine = new Set<string>()
  const foreign = new Set<string>()
  const owned = async (conversationId: string): Promise<boolean> => {
    if (mine.has(conversationId)) return true
    if (foreign.has(conversationId)) return false
    const yes = await web.owns(s, conversationId)
    if (yes) mine.add(conversationId)
    else {
      if (foreign.size >= MAX_FOREIGN) foreign.clear()
      foreign.add(conversationId)
    }
    return yes
  }
  // Events are handled one after the other, so the visitor reads them in the order they were committed.
  let chain: Promise<void> = Promise.resolve()
  const queue = (work: () => Promise<void>) => {
    chain = chain.then(work).catch((err) => request.log.warn({ err: (err as Error).message }, 'web chat stream: an event was not sent'))
  }
  const onEvent = (e: FeedEvent) => {
    const type = e.envelope.type
    const object = (e.envelope.data as { object?: Record<string, unknown> }).object
    if (!object) return
    if (type === 'message.created') {
      const m = object as unknown as MessageT
      if (m.private) return
      queue(async () => {
        if (!(await owned(m.conversation_id))) return
        const shown = visitorMessage(m)
        write('message', shown)
        await web.delivered(s, [shown])
      })
    } else if (type === 'conversation.deleted') {
      // Deleted (retention, an erasure): the link that said whose it was goes with it soon after (the channels'
      // forget job), so the stream also trusts what it already knew. The widget clears the thread; the visitor's
      // next message starts a new conversation.
      const id = object.id as string
      queue(async () => {
        if (!(await owned(id))) return
        mine.delete(id)
        write('deleted', { conversation_id: id })
      })
    } else if (CONVERSATION_EVENTS.has(type)) {
      const id = object.id as string
      queue(async () => {
        if (await owned(id)) write('state', { conversation_id: id, ...(await web.state(s, id)) })
      })
    }
  }
  const onSignal = (name: string, data: unknown) => {
    if (name === 'conversation.read') {
      // The team read the conversation up to a message (the inbox's read marks): the visitor sees "Seen".
      const r = data as { conversation_id?: unknown; message_id?: unknown; read_at?: unknown }
      if (typeof r?.conversation_id !== 'string' || typeof r.message_id !== 'string') return
      const id = r.conversation_id
      queue(async () => {
        if (await owned(id)) write('read', { conversation_id: id, up_to: r.message_id, read_at: typeof r.read_at === 'string' ? r.read_at : null })
      })
      return
    }
    if (name === DRAFT_SIGNAL) {
      const d = data as DraftSignal
      if (typeof d?.conversation_id !== 'string') return
      queue(async () => {
        if (await owned(d.conversation_id)) write('draft', d)
      })
      return
    }
    const p = data as { conversation_id?: string; actor?: { type?: string }; state?: string }
    if (name !== 'presence' || p.actor?.type !== 'member' || !p.conversation_id) return
    const id = p.conversation_id
    queue(async () => {
      if (await owned(id)) write('typing', { conversation_id: id, from: 'agent', typing: p.state === 'typing' })
    })
  }
  // The visitor's current conversation is theirs from the start: its deletion is told even if nothing else was.
  queue(async () => {
    const current = await web.currentConversation(s)
    if (current) mine.add(current)
  })
  const unsubscribe = k.feed.subscribe(s.tenant, { event: onEvent, signal: onSignal })
  const heartbeat = setInterval(() => raw.writableEnded || raw.write(': ping\n\n'), HEARTBEAT_MS)
  heartbeat.unref()
  const end = () => {
    if (!open.delete(end)) return
    clearInterval(heartbeat)
    unsubscribe()
    if (!raw.writableEnded) raw.end()
  }
  open.add(end)
  raw.on('close', end)
  write('ready', { object: 'widget_stream', visitor_id: s.visitor.id })
}
