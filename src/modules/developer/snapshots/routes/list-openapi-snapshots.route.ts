import { defineRoute } from '../../../../kernel/http/define-route.js'
import { ListOpenApiSnapshotsQuery, OpenApiSnapshotList } from '../snapshots.schemas.js'

export const listOpenApiSnapshots = defineRoute({
  operationId: 'listOpenApiSnapshots',
  method: 'GET',
  url: '/openapi-snapshots',
  module: 'developer',
  scope: 'read',
  summary: 'List OpenAPI snapshots',
  description:
    'Snapshots of the API’s OpenAPI document taken in this workspace and mode, newest first, each with its diff from the one before ' +
    '(added and removed operations, breaking and non-breaking changes). `id` picks one; with `include=document` (only together with `id`, ' +
    'as its `document_url` does) the item carries the stored document.',
  schema: { querystring: ListOpenApiSnapshotsQuery, response: { 200: OpenApiSnapshotList } },
  handler: ({ query, principal, services }) => services.openApiSnapshots.list(principal, query),
})
