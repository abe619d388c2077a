import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { Type } from 'typebox'
import { AppError } from '../../../kernel/errors.js'
import { sendBlob } from '../../../kernel/http/send-blob.js'
import { registerJsonBodyParser } from '../../../kernel/http/json-body.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Services } from '../../../kernel/services.js'
import type { ChannelsTable } from '../channels.tables.js'
import * as repo from './web-chat.repository.js'
import type { VisitorSession } from './web-chat.service.js'
import { widgetSettingsOf } from './web-chat.settings.js'
import { openVisitorStream, VisitorStreams } from './web-chat.stream.js'
import { WIDGET_SOURCE } from './widget.client.js'

/** A widget request is a line of chat or a session: small. */
const BODY_LIMIT = 16 * 1024
/** A visitor's file (an image, a PDF): checked while the body is read, refused past it (413). */
const FILE_LIMIT = 5 * 1024 * 1024
const FILE_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp', 'application/pdf']
const VISITOR_FILES_PER_MINUTE = 10
/** Per visitor (their token), per minute: enough to chat fast, not to flood an inbox. */
const VISITOR_MESSAGES_PER_MINUTE = 30
const VISITOR_REQUESTS_PER_MINUTE = 120
/** Per client address, per minute: sessions (a new visitor each, at most) and the script. */
const ADDRESS_SESSIONS_PER_MINUTE = 30
const ADDRESS_SCRIPT_PER_MINUTE = 300

const KeyParams = Type.Object({ key: Type.String({ maxLength: 40 }) })
const FileQuery = Type.Object({ client_id: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$' }), filename: Type.Optional(Type.String({ maxLength: 200 })) }, { additionalProperties: false })
const FileParams = Type.Object({ id: Type.String({ pattern: '^wfa_[0-9a-f]{32}$' }), name: Type.String({ maxLength: 200 }) })
const SessionBody = Type.Object(
  {
    token: Type.Optional(Type.String({ maxLength: 600 })),
    user_id: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
    user_hash: Type.Optional(Type.String({ maxLength: 128 })),
    email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })),
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })),
  },
  { additionalProperties: false },
)
const ProfileBody = Type.Object(
  { email: Type.Optional(Type.String({ format: 'email', maxLength: 254 })), name: Type.Optional(Type.String({ minLength: 1, maxLength: 200, pattern: '\\S' })) },
  { additionalProperties: false, minProperties: 1 },
)
const TypingBody = Type.Object({ typing: Type.Boolean() }, { additionalProperties: false })
const ReadBody = Type.Object({ message_id: Type.String({ pattern: '^msg_[0-9A-Z]{26}$', description: 'The newest reply the visitor has seen.' }) }, { additionalProperties: false })
const MessageBody = Type.Object(
  {
    client_id: Type.String({ pattern: '^[A-Za-z0-9_-]{8,64}$', description: 'Made by the widget per message: a retried send is the same message.' }),
    text: Type.String({ minLength: 1, maxLength: 4000, pattern: '\\S' }),
  },
  { additionalProperties: false },
)

interface Widget {
  channel?: ChannelsTable
  session?: VisitorSession
}
const widgetOf = (request: FastifyRequest) => request as FastifyRequest & { widget?: Widget }

/** The visitor token: `Authorization: Bearer wvt_…`, or `?token=` for EventSource (which cannot set headers). */
function tokenOf(request: FastifyRequest): string | undefined {
  const auth = request.headers.authorization
  if (auth) {
    const m = /^Bearer (\S+)$/.exec(auth)
    if (m && !m[1].startsWith('wvt_')) throw new AppError('unauthorized', 'The widget API takes no API key: it answers visitors, by their visitor token.')
    return m?.[1]
  }
  const q = (request.query as { token?: unknown }).token
  return typeof q === 'string' ? q : undefined
}

/**
 * The chat widget's own public API, outside the API's base URLs and its keys (a browser on a customer's
 * site calls it; docs/channels.md "Web chat"):
 * - GET  /widget/v1/widget.js — the script (any site may load it; it does nothing without an allowed origin);
 * - POST /widget/v1/channels/{key}/session — start or resume a visitor (token, identity verification);
 * - GET|POST /widget/v1/channels/{key}/messages — the visitor's history / a message from them;
 * - POST /widget/v1/channels/{key}/profile — pre-chat e-mail and name;
 * - POST /widget/v1/channels/{key}/read — the replies the visitor has seen (read receipts);
 * - GET  /widget/v1/channels/{key}/stream — their conversation, live (SSE).
 * CORS only for the channel's allowed origins (a request from any other origin, or none, is 403); rate
 * limited per visitor and per client address.
 */
export function webChatCallbacks(k: Kernel, services: Services) {
  return async (app: FastifyInstance) => {
    registerJsonBodyParser(app)
    app.addContentTypeParser(FILE_TYPES, { parseAs: 'buffer', bodyLimit: FILE_LIMIT }, (_request, body, done) => done(null, body))
    const streams = new VisitorStreams()
    app.addHook('preClose', async () => streams.close())
    const web = () => services.channels.webChat
    // One limit counts per request (@fastify/rate-limit): a visitor's calls per visitor, and what makes
    // visitors (sessions) per client address, so one address cannot mint visitors to escape its limit.
    // Per address and channel: one office's visitors on one business's site never spend another channel's budget
    // (the counters are shared by every node through Redis). The script and files, which name no channel, per address.
    const perAddress = (max: number) => ({ max, timeWindow: 60_000, keyGenerator: (r: FastifyRequest) => `widget-ip:${r.ip}:${(r.params as { key?: string }).key ?? ''}` })
    const perVisitor = (max: number) => ({
      max,
      timeWindow: 60_000,
      keyGenerator: (r: FastifyRequest) => {
        const t = (() => {
          try {
            return tokenOf(r)
          } catch {
            return undefined
          }
        })()
        // The signature part names the visitor (tokens are per visitor); unsigned requests share the address's bucket.
        return t ? `widget-v:${t.slice(-43)}` : `widget-vip:${r.ip}`
      },
    })

    // The channel named in the path, and CORS for its allowed origins, before anything else is read.
    app.addHook('onRequest', async (request, reply) => {
      const { key } = (request.params ?? {}) as { key?: string }
      if (key === undefined) return
      const channel = await web().channelByKey(key)
      const origin = request.headers.origin
      if (!web().originAllowed(channel, origin)) {
        throw new AppError(
          'forbidden',
          `This page's origin (${origin ? JSON.stringify(origin.slice(0, 200)) : 'none'}) is not among the chat's allowed origins (the channel's web_chat.allowed_origins).`,
        )
      }
      reply.header('Access-Control-Allow-Origin', origin!)
      reply.header('Vary', 'Origin')
      reply.header('Access-Control-Expose-Headers', 'X-Request-ID, Retry-After')
      widgetOf(request).widget = { channel }
    })

    const session = async (request: FastifyRequest): Promise<VisitorSession> => {
      const w = widgetOf(request).widget!
      w.session ??= await web().authenticate(w.channel!, tokenOf(request))
      return w.session
    }
    const configOf = (channel: ChannelsTable) => {
      const s = widgetSettingsOf(channel)
      return { theme: s.theme, locale: s.locale, require_email: s.require_email, identity_verification: s.identity_verification }
    }

    // How far the team has read the visitor's conversation (the widget's "Seen" under their messages).
    const seenByTeam = async <H extends { conversation_id: string | null }>(s: VisitorSession, h: H) => ({
      ...h,
      team_read_up_to: h.conversation_id ? ((await services.channels.webChatReads.teamRead(s, h.conversation_id))?.message_id ?? null) : null,
    })

    app.options('/widget/v1/channels/:key/*', (_request, reply: FastifyReply) => {
      reply.header('Access-Control-Allow-Methods', 'GET, POST').header('Access-Control-Allow-Headers', 'Authorization, Content-Type').header('Access-Control-Max-Age', '600').code(204).send()
    })

    app.get('/widget/v1/widget.js', { config: { rateLimit: perAddress(ADDRESS_SCRIPT_PER_MINUTE) } }, (_request, reply) => {
      // Any site may load the script; the API it calls is what checks the origin.
      reply
        .header('Content-Type', 'text/javascript; charset=utf-8')
        .header('Cache-Control', 'public, max-age=300')
        .header('Access-Control-Allow-Origin', '*')
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
      return reply.send(WIDGET_SOURCE)
    })

    // The look of the widget before any visitor exists: a page view makes no visitor until the chat is opened.
    app.get('/widget/v1/channels/:key/config', { schema: { params: KeyParams }, config: { rateLimit: perAddress(ADDRESS_SCRIPT_PER_MINUTE) } }, async (request, reply) => {
      reply.header('Cache-Control', 'private, max-age=60')
      return { object: 'widget_config', ...configOf(widgetOf(request).widget!.channel!) }
    })

    app.post(
      '/widget/v1/channels/:key/session',
      { bodyLimit: BODY_LIMIT, schema: { params: KeyParams, body: SessionBody }, config: { rateLimit: perAddress(ADDRESS_SESSIONS_PER_MINUTE) } },
      async (request) => {
        const channel = widgetOf(request).widget!.channel!
        const body = request.body as { token?: string; user_id?: string; user_hash?: string; email?: string; name?: string }
        const { token, visitor } = await web().session(channel, body)
        const s: VisitorSession = { channel, visitor, tenant: { workspaceId: channel.workspace_id, mode: channel.mode } }
        const history = await seenByTeam(s, await web().history(s))
        return { object: 'widget_session', token, visitor: { id: visitor.id, email: visitor.email, name: visitor.name, verified: visitor.user_id !== null }, config: configOf(channel), ...history }
      },
    )

    app.get('/widget/v1/channels/:key/messages', { schema: { params: KeyParams }, config: { rateLimit: perVisitor(VISITOR_REQUESTS_PER_MINUTE) } }, async (request) => {
      const s = await session(request)
      return { object: 'widget_history', ...(await seenByTeam(s, await web().history(s))) }
    })

    app.post(
      '/widget/v1/channels/:key/messages',
      { bodyLimit: BODY_LIMIT, schema: { params: KeyParams, body: MessageBody }, config: { rateLimit: perVisitor(VISITOR_MESSAGES_PER_MINUTE) } },
      async (request, reply) => {
        const s = await session(request)
        const { client_id, text } = request.body as { client_id: string; text: string }
        const r = await web().send(s, client_id, text)
        reply.code(r.duplicate ? 200 : 201)
        return { object: 'widget_message', client_id, duplicate: r.duplicate, conversation_id: r.conversationId, message_id: r.messageId }
      },
    )

    app.post(
      '/widget/v1/channels/:key/typing',
      { bodyLimit: BODY_LIMIT, schema: { params: KeyParams, body: TypingBody }, config: { rateLimit: perVisitor(VISITOR_REQUESTS_PER_MINUTE) } },
      async (request, reply) => {
        await web().typing(await session(request), (request.body as { typing: boolean }).typing)
        return reply.code(204).send()
      },
    )

    // Read receipts (web-chat-read-receipts.ts): the widget reports the newest reply shown in a visible tab.
    app.post(
      '/widget/v1/channels/:key/read',
      { bodyLimit: BODY_LIMIT, schema: { params: KeyParams, body: ReadBody }, config: { rateLimit: perVisitor(VISITOR_REQUESTS_PER_MINUTE) } },
      async (request) => {
        const read = await services.channels.webChatReads.visitorRead(await session(request), (request.body as { message_id: string }).message_id)
        return { object: 'widget_read', read }
      },
    )

    app.post(
      '/widget/v1/channels/:key/profile',
      { bodyLimit: BODY_LIMIT, schema: { params: KeyParams, body: ProfileBody }, config: { rateLimit: perVisitor(VISITOR_REQUESTS_PER_MINUTE) } },
      async (request) => {
        const v = await web().profile(await session(request), request.body as { email?: string; name?: string })
        return { object: 'widget_visitor', id: v.id, email: v.email, name: v.name, verified: v.user_id !== null }
      },
    )

    app.post(
      '/widget/v1/channels/:key/files',
      { bodyLimit: FILE_LIMIT, schema: { params: KeyParams, querystring: FileQuery }, config: { rateLimit: perVisitor(VISITOR_FILES_PER_MINUTE) } },
      async (request, reply) => {
        const s = await session(request)
        const { client_id, filename } = request.query as { client_id: string; filename?: string }
        const declared = String(request.headers['content-type'] ?? '')
          .split(';')[0]
          .trim()
          .toLowerCase()
        const bytes = request.body as Buffer
        if (!Buffer.isBuffer(bytes) || bytes.length === 0) throw new AppError('validation_failed', 'Send the file as the body.', { errors: [{ pointer: '/body', detail: 'is required' }] })
        const r = await web().attach(s, client_id, filename ?? 'file', declared, bytes)
        reply.code(r.duplicate ? 200 : 201)
        return { object: 'widget_message', client_id, duplicate: r.duplicate, conversation_id: r.conversationId, message_id: r.messageId, attachment_id: r.attachmentId }
      },
    )

    // A visitor's file, by its unguessable id (the capability: shown in the visitor's chat and the inbox). Sandboxed:
    // never run as a page of this origin, never sniffed as another type.
    app.get('/widget/v1/files/:id/:name', { schema: { params: FileParams }, config: { rateLimit: perAddress(ADDRESS_SCRIPT_PER_MINUTE) } }, async (request, reply) => {
      const { id } = request.params as { id: string }
      const file = await repo.findAttachmentAnywhere(k.db, id)
      if (!file) throw new AppError('resource_not_found', 'No such file (it may have been erased).')
      reply
        .header('X-Content-Type-Options', 'nosniff')
        .header('Content-Security-Policy', "default-src 'none'; img-src 'self'; plugin-types application/pdf; sandbox")
        .header('Cross-Origin-Resource-Policy', 'cross-origin')
        .header('Cache-Control', 'private, max-age=3600')
      return sendBlob(request, reply, k.blobs, file.blob_key, { contentType: file.content_type, filename: file.filename })
    })

    app.get('/widget/v1/channels/:key/stream', { schema: { params: KeyParams }, config: { rateLimit: perVisitor(VISITOR_REQUESTS_PER_MINUTE) } }, async (request, reply) => {
      const s = await session(request)
      openVisitorStream(k, streams, web(), s, request, reply)
    })
  }
}
