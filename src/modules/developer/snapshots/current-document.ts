import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { stringify } from 'safe-stable-stringify'
import { finaliseOpenApi } from '../../../kernel/http/openapi.js'
import type { Kernel } from '../../../kernel/kernel.js'
import type { Json } from './openapi-walk.js'

export interface ServedDocument {
  document: Json
  /** Canonical JSON: keys sorted by UTF-16 code units, no whitespace (RFC 8785 for a document of strings, integers and booleans). */
  canonical: string
  sha256: string
  operationCount: number
}

const built = new WeakMap<Kernel, ServedDocument>()

/**
 * The document GET /v2/openapi.json serves, made in-process from the same sources server.ts gives
 * `openApiDocument` (what @fastify/swagger made of the routes, the route table, the event catalog and the
 * delivering module's contract). All are fixed once the app is built, so this is the served document;
 * it is finalised once per app, like the served one. `server`: any scope of the app (a route's
 * `request.server`): @fastify/swagger decorates the root, which every scope inherits.
 */
export function servedDocument(kernel: Kernel, server: FastifyInstance): ServedDocument {
  const known = built.get(kernel)
  if (known) return known
  const document = finaliseOpenApi({
    base: server.swagger() as unknown as Json,
    routes: kernel.modules.flatMap((m) => m.routes),
    events: kernel.events.catalog(),
    delivery: kernel.modules.find((m) => m.eventDelivery)?.eventDelivery,
  })
  const canonical = stringify(document)
  const paths = Object.values((document.paths ?? {}) as Record<string, Json>)
  const served: ServedDocument = {
    document,
    canonical,
    sha256: createHash('sha256').update(canonical).digest('hex'),
    operationCount: paths.reduce((n, methods) => n + Object.keys(methods).length, 0),
  }
  built.set(kernel, served)
  return served
}
