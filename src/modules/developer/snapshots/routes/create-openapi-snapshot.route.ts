import { defineRoute } from '../../../../kernel/http/define-route.js'
import { CreateOpenApiSnapshotBody, OpenApiSnapshot } from '../snapshots.schemas.js'

export const createOpenApiSnapshot = defineRoute({
  operationId: 'createOpenApiSnapshot',
  method: 'POST',
  url: '/openapi-snapshots',
  module: 'developer',
  scope: 'write',
  summary: 'Take an OpenAPI snapshot',
  description:
    'Stores the OpenAPI document this server serves now (`/openapi.json`) with its API version, SHA-256 of its canonical JSON and ' +
    'operation count, and the diff from this workspace’s previous snapshot. A document identical to the previous one still makes a ' +
    'snapshot, with `unchanged: true` and an empty diff.',
  schema: { body: CreateOpenApiSnapshotBody, response: { 201: OpenApiSnapshot } },
  handler: ({ body, principal, services, request }) => services.openApiSnapshots.create(principal, body, request.server),
})
