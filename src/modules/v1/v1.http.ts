import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { bindAudit } from '../../kernel/audit/audit.js'
import { findPrincipal, keyMode } from '../../kernel/auth/api-keys.js'
import { hasScope } from '../../kernel/auth/scopes.js'
import { AppError } from '../../kernel/errors.js'
import { deprecationHeaders } from '../../kernel/http/deprecation.js'
import { escapeHtml } from '../../kernel/http/html.js'
import { sendProblem } from '../../kernel/http/problem.js'
import { requestAuditScope } from '../../kernel/http/route-options.js'
import type { Kernel } from '../../kernel/kernel.js'
import type { Services } from '../../kernel/services.js'
import type { Mode, Principal } from '../../kernel/tenant.js'
import { V1BotRunBody, V1ChatBody, V1ChatsQuery, type V1BotRunBodyT, type V1ChatBodyT, type V1ChatsQueryT } from './v1.schemas.js'
import { V1Service } from './v1.service.js'

/** When v1 was deprecated (2.2.0 deprecated its offset pagination; every v1 endpoint carries this date). */
export const V1_DEPRECATED_AT = new Date('2026-03-01T00:00:00Z')

/** v1 lives beside v2: live keys on /api/v1, test keys on /sandbox/api/v1 (as /v2 and /sandbox/v2). */
const BASES: { prefix: string; mode: Mode }[] = [
  { prefix: '/api/v1', mode: 'live' },
  { prefix: '/sandbox/api/v1', mode: 'test' },
]

/** The v1 → v2 mapping of SPEC §9.2: what the migration page and the successor-version links show. */
export const V1_MAPPING = [
  { v1: 'POST /api/v1/chat', v2: 'POST /inbox/conversations/{id}/messages', module: 'inbox', operationId: 'sendMessage', change: 'messages belong to a conversation and support idempotency' },
  { v1: 'GET /api/v1/chats', v2: 'GET /inbox/conversations', module: 'inbox', operationId: 'listConversations', change: 'cursor pagination instead of offset' },
  { v1: 'POST /api/v1/bot/run', v2: 'POST /agents/{id}/runs', module: 'agents', operationId: 'createAgentRun', change: 'a run is a separate resource with approve and cancel' },
  { v1: 'X-Svc-Signature', v2: 'Svc-Status-Signature', module: 'webhooks', operationId: null, change: 'signature value format `t=<timestamp>,v1=<hex>`' },
] as const

type Op = (typeof V1_MAPPING)[number]

/**
 * The v1 endpoints (docs/migration-v1.md), mounted through the module's `callbacks` hook: v1 is not part of
 * the v2 OpenAPI document. Each authenticates with the same API keys and scopes as v2; every response,
 * errors included, carries Deprecation, Sunset and Link; after V1_SUNSET every endpoint answers 410.
 * The route config's operationId/module make the kernel count v1 calls under module `v1` in the usage
 * report and list them in GET /api-logs.
 */
export function v1Endpoints(k: Kernel, services: Services) {
  const v1 = new V1Service(services)
  const guide = `${k.config.publicUrl}/api/v1/migration`
  const sunset = k.config.v1Sunset
  const successor = (op: Op | null) => (op?.operationId ? `${k.config.docsBaseUrl}/${op.module}/${op.operationId}` : `${k.config.docsBaseUrl}`)

  return async (app: FastifyInstance) => {
    // The guide itself stays readable after the sunset: the 410 points at it.
    app.get('/api/v1/migration', async (_request, reply) => {
      reply.headers(deprecationHeaders({ since: V1_DEPRECATED_AT, sunset, docs: guide, successor: k.config.docsBaseUrl }))
      return reply.type('text/html; charset=utf-8').send(migrationPage(k.config.docsBaseUrl, sunset))
    })

    for (const { prefix, mode } of BASES) {
      await app.register(
        async (scope) => {
          scope.addHook('onSend', async (request, reply, payload) => {
            const op = (request.routeOptions.config as { v1?: Op }).v1 ?? null
            reply.headers(deprecationHeaders({ since: V1_DEPRECATED_AT, sunset, docs: guide, successor: successor(op) }))
            return payload
          })
          scope.addHook('onRequest', async () => {
            if (k.clock.now().getTime() >= sunset.getTime()) {
              throw new AppError('v1_sunset', `API version 1 was switched off on ${sunset.toISOString()}. Move to v2: ${guide}`, { migration_guide: guide })
            }
          })
          const route = <B, Q>(method: 'GET' | 'POST', url: string, op: Op, scopeNeeded: string, schema: object, handle: (p: Principal, body: B, query: Q) => Promise<unknown>, status = 200) =>
            scope.route({
              method,
              url,
              schema,
              config: { operationId: `v1_${op.operationId}`, module: 'v1', mode, v1: op } as object,
              preHandler: async (request) => {
                request.principal = await authenticate(request, mode, scopeNeeded)
              },
              handler: async (request: FastifyRequest, reply: FastifyReply) => {
                // Its own principal object, bound to the request's audit scope as v2's operations bind theirs (route-options.ts).
                const principal = bindAudit({ ...request.principal! }, requestAuditScope(request, `v1_${op.operationId}`, request.principal!))
                const result = await handle(principal, request.body as B, request.query as Q)
                return reply.code(status).send(result)
              },
            })
          route<V1ChatBodyT, unknown>('POST', '/chat', V1_MAPPING[0], 'messages:write', { body: V1ChatBody }, (p, b) => v1.chat(p, b), 201)
          route<unknown, V1ChatsQueryT>('GET', '/chats', V1_MAPPING[1], 'conversations:read', { querystring: V1ChatsQuery }, (p, _b, q) => v1.chats(p, q))
          route<V1BotRunBodyT, unknown>('POST', '/bot/run', V1_MAPPING[2], 'write', { body: V1BotRunBody }, (p, b) => v1.botRun(p, b), 201)
          // An unknown v1 path is still a v1 response: the same headers, and the guide.
          scope.setNotFoundHandler(async (request, reply) =>
            sendProblem(
              request,
              reply,
              new AppError('route_not_found', `No v1 endpoint at ${request.method} ${request.url.split('?')[0]}. v1 has POST /chat, GET /chats and POST /bot/run; see ${guide}.`),
            ),
          )
        },
        { prefix },
      )
    }
  }

  /** The same API keys as v2: live keys on /api/v1, test keys on /sandbox/api/v1, and v2's scopes. */
  async function authenticate(request: FastifyRequest, mode: Mode, scope: string): Promise<Principal> {
    const m = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.authorization ?? '')
    if (!m) throw new AppError('unauthorized', 'Send your API key as "Authorization: Bearer svc_live_…" (or svc_test_… on /sandbox/api/v1).')
    const km = keyMode(m[1])
    if (!km) throw new AppError('unauthorized', 'The API key is malformed (v1 accepts API keys only).')
    if (km !== mode) {
      throw new AppError('wrong_environment', km === 'test' ? `svc_test_ keys work only on ${k.config.publicUrl}/sandbox/api/v1.` : `svc_live_ keys work only on ${k.config.publicUrl}/api/v1.`)
    }
    const principal = await findPrincipal(k.db, m[1])
    if (!principal) throw new AppError('unauthorized', 'The API key is unknown or has been revoked.')
    request.principal = principal
    if (!hasScope(principal.scopes, scope)) {
      throw new AppError('insufficient_scope', `This endpoint requires the scope '${scope}'; the key has: ${principal.scopes.join(' ') || '(none)'}.`, { required_scope: scope })
    }
    return principal
  }
}

function migrationPage(docs: string, sunset: Date): string {
  const rows = V1_MAPPING.map(
    (r) =>
      `<tr><td><code>${escapeHtml(r.v1)}</code></td><td>${r.operationId ? `<a href="${escapeHtml(`${docs}/${r.module}/${r.operationId}`)}"><code>${escapeHtml(r.v2)}</code></a>` : `<code>${escapeHtml(r.v2)}</code>`}</td><td>${escapeHtml(r.change)}</td></tr>`,
  ).join('')
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Migrating from v1 to v2</title></head><body>
<h1>Migrating from API v1 to v2</h1>
<p>Version 1 is deprecated and stops working on <strong>${escapeHtml(sunset.toUTCString())}</strong>; after that every /api/v1 endpoint answers 410.</p>
<table><thead><tr><th>v1</th><th>v2</th><th>Change</th></tr></thead><tbody>${rows}</tbody></table>
<h2>Steps</h2><ol><li>Generate a new <code>svc_test_</code> key.</li><li>Replace offset with cursor pagination (<code>next_cursor</code>).</li>
<li>Add <code>Idempotency-Key</code> to every POST and PATCH.</li><li>Switch the webhook signature header to <code>Svc-Status-Signature</code>.</li>
<li>Test in the sandbox (<code>/sandbox/v2</code>) and the Webhook Playground.</li></ol>
<p>Reference: <a href="${escapeHtml(docs)}">${escapeHtml(docs)}</a></p></body></html>`
}
