import swagger from '@fastify/swagger'
import type { FastifyInstance } from 'fastify'
import type { Config } from '../../config.js'
import { API_VERSION } from '../events/events.js'
import type { Mode } from '../tenant.js'
import type { Authentication } from './authentication.js'

/** The OpenAPI document from the routes' own schemas (finalised for client generators in openapi.ts). */
export async function registerSwagger(app: FastifyInstance, config: Pick<Config, 'publicUrl'>, tokenSchemes: Authentication['tokenSchemes']): Promise<void> {
  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: 'Conversational Automation Service API',
        version: API_VERSION,
        description: 'Version 2 of the HTTP API. The sandbox base URL serves the same operations with svc_test_ keys.',
        // The service is not published under an open-source licence (package.json is private): a custom SPDX reference.
        license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
      },
      // From PUBLIC_URL (config.publicUrl; http://localhost:$PORT when unset).
      servers: [
        { url: `${config.publicUrl}/v2`, description: 'live (svc_live_ keys)' },
        { url: `${config.publicUrl}/sandbox/v2`, description: 'sandbox (svc_test_ keys)' },
      ],
      components: {
        securitySchemes: {
          bearerAuth: { type: 'http', scheme: 'bearer', description: 'Authorization: Bearer svc_live_… or svc_test_…' },
          // Other bearer tokens the modules issue (OAuth), described by their issuer.
          ...Object.fromEntries(tokenSchemes.map((t) => [t.name, t.scheme])),
        },
      },
    },
    refResolver: { buildLocalReference: (json, _base, _frag, i) => (typeof json.$id === 'string' ? json.$id : `def-${i}`) },
    transform: ({ schema, url, route }) => {
      const cfg = (route.config ?? {}) as { operationId?: string; mode?: Mode }
      const hidden = !cfg.operationId || cfg.mode !== 'live'
      return { schema: { ...schema, hide: hidden || (schema as { hide?: boolean }).hide }, url: url.replace(/^\/v2(?=\/|$)/, '') || '/' }
    },
  })
}
