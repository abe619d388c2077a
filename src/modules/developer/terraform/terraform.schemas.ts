import { Type, type Static, type TSchema } from 'typebox'
import { Page, PageQuery } from '../../../kernel/http/pagination.js'
import { Nullable } from '../../../kernel/http/schemas.js'

const oneOf = <T extends string>(values: readonly T[], opts: Record<string, unknown> = {}) => Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts })
const TYPES = ['string', 'number', 'bool', 'list', 'map', 'object', 'dynamic'] as const

const attributeFields = {
  name: Type.String(),
  type: oneOf(TYPES, { description: 'Terraform type; `dynamic` for free-form JSON and unions of kinds.' }),
  // null is one of the enum's values too: a nullable enum must list it (Nullable would only widen the type).
  element_type: Type.Unsafe<(typeof TYPES)[number] | null>({ type: ['string', 'null'], enum: [...TYPES, null], description: 'The type of a list’s items or a map’s values.' }),
  required: Type.Boolean({ description: 'Required in the create body.' }),
  optional: Type.Boolean({ description: 'Accepted in the create body, not required.' }),
  computed: Type.Boolean({ description: 'Set by the server: only in responses (id, created_at…), or optional with a value the server always fills in.' }),
  sensitive: Type.Boolean({ description: 'A secret (named secret, token, password… or writeOnly): never shown in plans, never exported.' }),
  force_new: Type.Boolean({ description: 'Settable at creation but not by the update operation: changing it replaces the object.' }),
  description: Nullable(Type.String()),
} satisfies Record<string, TSchema>

const NestedAttribute = Type.Object(attributeFields, { title: 'TerraformNestedAttribute' })
const Attribute = Type.Object(
  { ...attributeFields, attributes: Type.Optional(Type.Array(NestedAttribute, { description: 'The attributes of an object, or of a list’s or map’s objects.' })) },
  { title: 'TerraformAttribute' },
)

export const TerraformResourceSchema = Type.Object(
  {
    object: Type.Literal('terraform_resource'),
    type: Type.String({ examples: ['svc_bot'] }),
    description: Type.String(),
    schema: Nullable(Type.String({ description: 'The OpenAPI component the attributes are read from.', examples: ['Bot'] })),
    import: Type.Object(
      {
        by: Type.String({ description: 'The field `terraform import` takes: `id`, `client_id`, or `workspace` for a singleton.' }),
        id_format: Nullable(Type.String({ examples: ['bot_…'] })),
        example: Nullable(Type.String({ examples: ['bot_01JD0000000000000000000000'] })),
      },
      { title: 'TerraformImport' },
    ),
    operations: Type.Object(
      {
        create: Type.String(),
        read: Nullable(Type.String({ description: 'null: read from the list operation.' })),
        update: Nullable(Type.String({ description: 'null: every attribute forces a new object.' })),
        delete: Nullable(Type.String({ description: 'null: destroy only removes it from the state.' })),
        list: Type.String(),
      },
      { title: 'TerraformOperations' },
    ),
    attributes: Type.Array(Attribute),
  },
  { $id: 'TerraformResource' },
)
export const TerraformResourceList = Page(TerraformResourceSchema, 'TerraformResource')

export const ListTerraformResourcesQuery = Type.Object(
  {
    ...PageQuery,
    type: Type.Optional(Type.String({ pattern: '^svc_[a-z_]{1,60}$', description: 'Only this resource type, e.g. `svc_bot`.' })),
    format: Type.Optional(
      oneOf(['json', 'hcl'] as const, {
        description: '`hcl`: the workspace’s existing objects as a Terraform configuration for the Mastercard/restapi provider (text/plain), instead of the list; cursor and limit do not apply.',
      }),
    ),
  },
  { additionalProperties: false },
)
export type ListTerraformResourcesQueryT = Static<typeof ListTerraformResourcesQuery>
