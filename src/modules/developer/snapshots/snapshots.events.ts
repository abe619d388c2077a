import { defineEvents, eventType, type PayloadsOf } from '../../../kernel/events/events.js'
import { OpenApiSnapshot } from './snapshots.schemas.js'

/** The event types of the snapshots part of the developer module. */
export const SNAPSHOT_EVENTS = defineEvents(
  'developer',
  { scope: 'read' },
  {
    'openapi_snapshot.created': eventType({
      description: 'An OpenAPI snapshot was taken, with its diff from the previous one (a CI job can watch `breaking`).',
      schema: OpenApiSnapshot,
      example: {
        id: 'snap_01JD0000000000000000000000',
        object: 'openapi_snapshot',
        label: 'v2.4.0',
        api_version: '2.4.0',
        openapi_version: '3.1.0',
        sha256: 'a'.repeat(64),
        operation_count: 120,
        size_bytes: 1_250_000,
        unchanged: false,
        previous_snapshot_id: 'snap_01JC0000000000000000000000',
        breaking: true,
        diff: {
          added_operations: [],
          removed_operations: [{ operation_id: 'deleteBot', method: 'DELETE', path: '/bots/{id}' }],
          breaking_changes: [{ kind: 'operation_removed', operation_id: 'deleteBot', location: '/paths/~1bots~1{id}/delete', message: 'operation DELETE /bots/{id} removed' }],
          non_breaking_changes: [],
        },
        document_url: 'https://api.example.com/v2/openapi-snapshots?id=snap_01JD0000000000000000000000&include=document',
        created_at: '2026-12-01T09:00:00.000Z',
      },
    }),
  },
)

declare module '../../../kernel/events/events.js' {
  interface EventPayloads extends PayloadsOf<typeof SNAPSHOT_EVENTS> {}
}
