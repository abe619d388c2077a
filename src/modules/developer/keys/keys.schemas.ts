import { Type, type Static } from 'typebox'
import { SCOPES } from '../../../kernel/auth/scopes.js'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Nullable } from '../../../kernel/http/schemas.js'

const Scope = SCOPES.enumSchema({ title: 'ApiKeyScope' })

export const ApiKey = Type.Object(
  {
    id: Type.String({ examples: ['key_01JD0000000000000000000000'] }),
    object: Type.Literal('api_key'),
    name: Nullable(Type.String()),
    prefix: Type.String({ description: 'The first 13 characters of the key, to recognise it (`svc_live_AbCd`); the rest is never stored.', examples: ['svc_live_AbCd'] }),
    livemode: Type.Boolean({ description: 'true for a live key (svc_live_, the /v2 base URL), false for a test key (svc_test_, /sandbox/v2).' }),
    scopes: Type.Array(Scope),
    status: Type.Union([Type.Literal('active'), Type.Literal('revoked')]),
    created_at: Type.String({ format: 'date-time' }),
    last_used_at: Nullable(Type.String({ format: 'date-time', description: 'When a request last authenticated with it (to within about a second); null = never.' })),
    revoked_at: Nullable(Type.String({ format: 'date-time' })),
  },
  { $id: 'ApiKey' },
)
export type ApiKeyT = Static<typeof ApiKey>

export const CreatedApiKey = Type.Object(
  {
    ...ApiKey.properties,
    key: Type.String({ description: 'The secret key. Shown in this answer only: only its SHA-256 is stored.', examples: ['svc_live_3n5K…'] }),
  },
  { $id: 'CreatedApiKey' },
)
export type CreatedApiKeyT = Static<typeof CreatedApiKey>

export const ApiKeyList = Page(ApiKey, 'ApiKey')

export const ListApiKeysQuery = Type.Object(
  { ...PageQuery, status: Type.Optional(Type.Union([Type.Literal('active'), Type.Literal('revoked')], { description: 'Only active or only revoked keys.' })) },
  { additionalProperties: false },
)
export type ListApiKeysQueryT = Static<typeof ListApiKeysQuery>

export const CreateApiKeyBody = Type.Object(
  {
    name: Type.Optional(Type.String({ minLength: 1, maxLength: 100, description: 'What the key is for, to tell keys apart.', examples: ['CRM sync'] })),
    scopes: SCOPES.listSchema(Scope, {
      minItems: 1,
      uniqueItems: true,
      description: 'What the key may do (docs/architecture.md#scopes): `read`, `write`, `admin` or granular `resource:action` scopes.',
    }),
  },
  { additionalProperties: false },
)
export type CreateApiKeyBodyT = Static<typeof CreateApiKeyBody>

export const ApiKeyParams = Type.Object({ id: Type.String({ pattern: '^key_[0-9A-Za-z]{1,40}$' }) })
