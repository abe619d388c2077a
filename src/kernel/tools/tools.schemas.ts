import { Type, type Static } from 'typebox'
import { Nullable } from '../http/schemas.js'

/** Tool and argument names: what OpenAI-compatible servers accept as a function name, lower case. */
export const TOOL_NAME_PATTERN = '^[a-z][a-z0-9_]{0,63}$'
const PROPERTY_NAME_PATTERN = '^[A-Za-z_][A-Za-z0-9_]{0,63}$'
/** Serialised size limit of a tool's parameters schema: it is sent to the model on every step. */
export const MAX_PARAMETERS_BYTES = 16 * 1024

export const ToolParameters = Type.Object(
  {
    type: Type.Literal('object'),
    properties: Type.Optional(
      Type.Record(Type.String({ pattern: PROPERTY_NAME_PATTERN }), Type.Object({}, { additionalProperties: true }), {
        maxProperties: 50,
        additionalProperties: false,
        description: 'One JSON Schema per argument (type, description, enum, format, pattern, minimum, …).',
      }),
    ),
    required: Type.Optional(Type.Array(Type.String({ pattern: PROPERTY_NAME_PATTERN }), { maxItems: 50, uniqueItems: true })),
  },
  {
    additionalProperties: true,
    title: 'ToolParameters',
    description:
      'A JSON Schema (draft-07) of the arguments: an object with `properties` and `required`. Validated when the tool is attached ' +
      `(it must compile) and every call's arguments against it; at most ${MAX_PARAMETERS_BYTES / 1024} KiB.`,
    examples: [{ type: 'object', properties: { order_id: { type: 'string', pattern: '^ord_[0-9]+$' } }, required: ['order_id'] }],
  },
)
export type ToolParametersT = Static<typeof ToolParameters>

const HttpMethod = Type.Union([Type.Literal('GET'), Type.Literal('POST'), Type.Literal('PUT'), Type.Literal('PATCH'), Type.Literal('DELETE')])
export type HttpMethodT = Static<typeof HttpMethod>

export const HttpToolInput = Type.Object(
  {
    type: Type.Literal('http'),
    name: Type.String({ pattern: TOOL_NAME_PATTERN, description: 'What the model calls it: lower case, digits and _, at most 64.' }),
    description: Type.String({ minLength: 1, maxLength: 1000, description: 'When to use it; engines choose tools by this text.' }),
    parameters: Type.Optional(ToolParameters),
    url: Type.String({ minLength: 1, maxLength: 2048, description: 'http(s) URL; checked against the outbound address rules when attached and before every call.' }),
    method: Type.Optional(HttpMethod),
    headers: Type.Optional(
      Type.Record(Type.String({ pattern: "^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,100}$" }), Type.String({ maxLength: 4096 }), {
        maxProperties: 20,
        additionalProperties: false,
        description: 'Sent with every call. Values are secrets: stored encrypted and never returned (the view lists the names).',
      }),
    ),
    timeout_ms: Type.Optional(Type.Integer({ minimum: 100, maximum: 30_000, default: 10_000, description: 'Bounds the whole call: connect, send, answer.' })),
  },
  { additionalProperties: false, title: 'HttpToolInput' },
)

export const BuiltinToolInput = Type.Object(
  {
    type: Type.Literal('builtin'),
    name: Type.String({ pattern: TOOL_NAME_PATTERN, description: 'One of the built-in tools of this service (search_knowledge, handoff_to_human, …).' }),
    description: Type.Optional(Type.String({ minLength: 1, maxLength: 1000, description: "Default: the built-in's own description." })),
    parameters: Type.Optional(ToolParameters),
  },
  { additionalProperties: false, title: 'BuiltinToolInput' },
)

export const ToolInput = Type.Union([HttpToolInput, BuiltinToolInput], { title: 'ToolInput' })
export type ToolInputT = Static<typeof ToolInput>
export type HttpToolInputT = Static<typeof HttpToolInput>
export type BuiltinToolInputT = Static<typeof BuiltinToolInput>

export const ToolView = Type.Object(
  {
    id: Type.String(),
    type: Type.Union([Type.Literal('http'), Type.Literal('builtin')]),
    name: Type.String(),
    description: Type.String(),
    parameters: Type.Record(Type.String(), Type.Unknown()),
    url: Nullable(Type.String()),
    method: Nullable(Type.String()),
    header_names: Type.Array(Type.String(), { description: 'Names of the headers sent; their values are never returned.' }),
    timeout_ms: Nullable(Type.Integer()),
    created_at: Type.String({ format: 'date-time' }),
  },
  { title: 'ToolView' },
)
export type ToolViewT = Static<typeof ToolView>
