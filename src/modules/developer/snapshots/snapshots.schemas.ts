import { Type, type Static } from 'typebox'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Nullable } from '../../../kernel/http/schemas.js'
import type { ChangeKind } from './openapi-diff.js'

const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })

export const CHANGE_KINDS = [
  'operation_added',
  'operation_removed',
  'operation_moved',
  'request_field_added',
  'request_field_removed',
  'request_field_required',
  'request_field_optional',
  'response_field_added',
  'response_field_removed',
  'response_field_optional',
  'response_status_added',
  'response_status_removed',
  'media_type_added',
  'media_type_removed',
  'enum_value_added',
  'enum_value_removed',
  'type_changed',
] as const satisfies readonly ChangeKind[]

const OperationRef = Type.Object({ operation_id: Type.String(), method: Type.String({ examples: ['POST'] }), path: Type.String({ examples: ['/bots'] }) }, { title: 'OpenApiOperationRef' })
export const OpenApiChange = Type.Object(
  {
    kind: oneOf(CHANGE_KINDS),
    operation_id: Type.String({ description: 'The operation the change affects.' }),
    location: Type.String({
      description: 'JSON pointer (RFC 6901) to what changed: into the previous snapshot’s document for what was removed, into this one’s otherwise.',
      examples: ['/components/schemas/Bot/properties/greeting'],
    }),
    message: Type.String({ examples: ['response 200 field greeting removed'] }),
  },
  { title: 'OpenApiChange' },
)
export const OpenApiDiffSchema = Type.Object(
  {
    added_operations: Type.Array(OperationRef),
    removed_operations: Type.Array(OperationRef),
    breaking_changes: Type.Array(OpenApiChange, { description: 'Changes a client written against the previous document may break on.' }),
    non_breaking_changes: Type.Array(OpenApiChange),
  },
  { title: 'OpenApiDiff', description: 'From the previous snapshot of this workspace and mode (docs/developer-tools.md "OpenAPI snapshots").' },
)

export const OpenApiSnapshot = Type.Object(
  {
    id: Type.String({ examples: ['snap_01JD0000000000000000000000'] }),
    object: Type.Literal('openapi_snapshot'),
    label: Nullable(Type.String()),
    api_version: Type.String({ description: 'The API version of the document (`info.version`).', examples: ['2.4.0'] }),
    openapi_version: Type.String({ examples: ['3.1.0'] }),
    sha256: Type.String({ description: 'SHA-256 (hex) of the document’s canonical JSON (RFC 8785: sorted keys, no whitespace), the exact bytes stored.' }),
    operation_count: Type.Integer(),
    size_bytes: Type.Integer({ description: 'Size of the canonical JSON.' }),
    unchanged: Type.Boolean({ description: 'true when the document is identical to the previous snapshot’s (the diff is then empty).' }),
    previous_snapshot_id: Nullable(Type.String({ description: 'The snapshot the diff is from; null for the first.' })),
    breaking: Type.Boolean({ description: 'Whether the diff has breaking changes.' }),
    diff: Type.Union([OpenApiDiffSchema, Type.Null()], { description: 'null for the first snapshot.' }),
    document_url: Type.String({ format: 'uri', description: 'Where the stored document is downloaded: this list with `id` and `include=document` (API key with `read`).' }),
    document: Type.Optional(Type.Object({}, { additionalProperties: true, description: 'The stored OpenAPI document; only with `include=document`.' })),
    created_at: Type.String({ format: 'date-time' }),
  },
  { $id: 'OpenApiSnapshot' },
)
export type OpenApiSnapshotT = Static<typeof OpenApiSnapshot>
export const OpenApiSnapshotList = Page(OpenApiSnapshot, 'OpenApiSnapshot')

export const ListOpenApiSnapshotsQuery = Type.Object(
  {
    ...PageQuery,
    id: Type.Optional(Type.String({ pattern: '^snap_[0-9A-Za-z]{1,40}$', description: 'Only this snapshot.' })),
    include: Type.Optional(oneOf(['document'] as const, { description: '`document`: each item carries its stored OpenAPI document (about 1 MB); only together with `id`.' })),
  },
  { additionalProperties: false },
)
export type ListOpenApiSnapshotsQueryT = Static<typeof ListOpenApiSnapshotsQuery>

export const CreateOpenApiSnapshotBody = Type.Object(
  { label: Type.Optional(Type.String({ minLength: 1, maxLength: 200, description: 'Your name for it, e.g. a release tag.' })) },
  { additionalProperties: false, title: 'CreateOpenApiSnapshotBody' },
)
export type CreateOpenApiSnapshotBodyT = Static<typeof CreateOpenApiSnapshotBody>
