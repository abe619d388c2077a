import { isObject, itemsOf, jsonSchemaOf, operationsOf, propertiesOf, resolve, typesOf, valuesOf, type Json, type Loc, type OperationLoc } from '../snapshots/openapi-walk.js'
import { TERRAFORM_RESOURCES, type TerraformResourceDef } from './terraform-catalog.js'

export type TerraformType = 'string' | 'number' | 'bool' | 'list' | 'map' | 'object' | 'dynamic'

export interface TerraformAttribute {
  name: string
  type: TerraformType
  /** The type of a list's items or a map's values. */
  element_type: TerraformType | null
  /** Required in the create body. */
  required: boolean
  /** Accepted in the create body, not required. */
  optional: boolean
  /** Set by the server: only in the response, or optional with a value the server always fills in. */
  computed: boolean
  sensitive: boolean
  /** Settable at creation but not by the update operation: a change replaces the object. */
  force_new: boolean
  description: string | null
  /** The attributes of an object, or of a list's or map's objects (one level). */
  attributes?: TerraformAttribute[]
}

export interface TerraformResource {
  object: 'terraform_resource'
  type: string
  description: string
  /** The OpenAPI component the attributes come from. */
  schema: string | null
  import: { by: string; id_format: string | null; example: string | null }
  operations: TerraformResourceDef['operations']
  attributes: TerraformAttribute[]
}

/** Secrets by name (`secret`, `signing_secret`, `client_secret`, `access_token`, `password`…), or `writeOnly`. */
const SENSITIVE = /(^|_)(secret|token|password|passphrase|api_key|private_key|credentials?)$/

/** The resource types of the catalog whose create operation `doc` has, with attributes read from its schemas. */
export function terraformResources(doc: Json): TerraformResource[] {
  const ops = operationsOf(doc)
  return TERRAFORM_RESOURCES.flatMap((def) => {
    const create = ops.get(def.operations.create)
    if (!create) return []
    return [resourceOf(doc, def, create, ops)]
  })
}

/** The JSON schema of an operation's first success response. */
function successSchema(doc: Json, op: OperationLoc | undefined): Loc | null {
  const responses = op?.loc.node.responses
  if (!op || !isObject(responses)) return null
  for (const status of Object.keys(responses)
    .filter((s) => /^2/.test(s))
    .sort()) {
    const r = resolve(doc, responses[status], `${op.loc.ptr}/responses/${status}`)
    const schema = r && jsonSchemaOf(doc, r)
    if (schema) return schema
  }
  return null
}

function bodySchema(doc: Json, op: OperationLoc | undefined): Loc | null {
  if (!op || op.loc.node.requestBody === undefined) return null
  const body = resolve(doc, op.loc.node.requestBody, `${op.loc.ptr}/requestBody`)
  return body && jsonSchemaOf(doc, body)
}

const componentName = (loc: Loc | null) => (loc && /^\/components\/schemas\/[^/]+$/.test(loc.ptr) ? loc.ptr.split('/').pop()! : null)

function resourceOf(doc: Json, def: TerraformResourceDef, create: OperationLoc, ops: Map<string, OperationLoc>): TerraformResource {
  const read = def.operations.read ? successSchema(doc, ops.get(def.operations.read)) : null
  const list = successSchema(doc, ops.get(def.operations.list))
  const listItem =
    list && !def.singleton
      ? (() => {
          const data = propertiesOf(doc, list).props.get('data')
          return data ? itemsOf(doc, data) : null
        })()
      : null
  const created = successSchema(doc, create)
  const responses = [created, read, listItem].filter((l): l is Loc => l !== null)
  const update = def.operations.update ? ops.get(def.operations.update) : undefined
  const by = def.singleton ? 'workspace' : (def.importBy ?? 'id')
  const example = def.singleton ? 'ws_01JD0000000000000000000000' : exampleOf(doc, responses, by)
  return {
    object: 'terraform_resource',
    type: def.type,
    description: def.description,
    schema: componentName(read ?? listItem ?? created),
    import: { by, id_format: example ? `${example.slice(0, example.lastIndexOf('_') + 1)}…` : null, example },
    operations: def.operations,
    attributes: attributesOf(doc, {
      body: bodySchema(doc, create),
      responses,
      // No update operation: every attribute forces a new object. A singleton's create is its update.
      update: def.singleton ? 'same' : update ? bodySchema(doc, update) : null,
      exclude: new Set(['object', ...(def.exclude ?? [])]),
      nested: true,
    }),
  }
}

function exampleOf(doc: Json, responses: Loc[], field: string): string | null {
  for (const r of responses) {
    const prop = propertiesOf(doc, r).props.get(field)
    const examples = prop?.node.examples
    if (Array.isArray(examples) && typeof examples[0] === 'string') return examples[0]
  }
  return null
}

interface Sources {
  body: Loc | null
  responses: Loc[]
  /** The update body; null when the object cannot be updated; 'same' when creating is updating. */
  update: Loc | null | 'same'
  exclude: Set<string>
  nested: boolean
  forceNew?: boolean
}

function attributesOf(doc: Json, s: Sources): TerraformAttribute[] {
  const body = s.body ? propertiesOf(doc, s.body) : null
  const update = s.update && s.update !== 'same' ? propertiesOf(doc, s.update) : null
  const responses = s.responses.map((r) => propertiesOf(doc, r))
  const names = [...new Set([...responses.flatMap((r) => [...r.props.keys()]), ...(body ? body.props.keys() : [])])].filter((n) => !s.exclude.has(n))
  return names.map((name) => {
    const inBody = body?.props.get(name) ?? null
    const owner = responses.find((r) => r.props.has(name))
    const inResponse = owner?.props.get(name) ?? null
    const required = !!inBody && body!.required.has(name)
    const optional = !!inBody && !required
    // An optional field the response always carries with a value (a default such as `language: "en"`) is filled in by the server.
    const alwaysFilled = !!inResponse && owner!.required.has(name) && !typesOf(doc, inResponse).has('null')
    const computed = !!inResponse && (!inBody || (optional && alwaysFilled))
    const shape = (inBody ?? inResponse)!
    const { type, element } = terraformType(doc, shape)
    const forceNew = s.forceNew ?? (!!inBody && s.update !== 'same' && !update?.props.has(name))
    const attribute: TerraformAttribute = {
      name,
      type,
      element_type: element,
      required,
      optional,
      computed,
      sensitive: SENSITIVE.test(name) || inBody?.node.writeOnly === true || inResponse?.node.writeOnly === true,
      force_new: forceNew,
      description: str(inBody?.node.description) ?? str(inResponse?.node.description),
    }
    if (s.nested && (type === 'object' || element === 'object')) {
      const inner = (l: Loc | null | undefined) => (!l ? null : type === 'object' ? l : type === 'list' ? itemsOf(doc, l) : valuesOf(doc, l))
      const nestedUpdate = s.update === 'same' ? 'same' : inner(update?.props.get(name))
      attribute.attributes = attributesOf(doc, {
        body: inner(inBody),
        responses: [inner(inResponse)].filter((l): l is Loc => l !== null),
        update: nestedUpdate,
        exclude: new Set(),
        nested: false,
        forceNew,
      })
    }
    return attribute
  })
}

const str = (v: unknown) => (typeof v === 'string' ? v : null)

/** Terraform's type for a schema; unions of several kinds and free-form JSON are `dynamic`. */
export function terraformType(doc: Json, loc: Loc, depth = 0): { type: TerraformType; element: TerraformType | null } {
  const types = [...typesOf(doc, loc)].filter((t) => t !== 'null')
  if (types.length === 0) return { type: 'dynamic', element: null }
  if (types.every((t) => t === 'number' || t === 'integer')) return { type: 'number', element: null }
  if (types.length > 1) return { type: 'dynamic', element: null }
  const element = (l: Loc | null) => (l && depth < 4 ? terraformType(doc, l, depth + 1).type : 'dynamic')
  switch (types[0]) {
    case 'string':
      return { type: 'string', element: null }
    case 'boolean':
      return { type: 'bool', element: null }
    case 'array':
      return { type: 'list', element: element(itemsOf(doc, loc)) }
    case 'object': {
      if (propertiesOf(doc, loc).props.size > 0) return { type: 'object', element: null }
      const values = valuesOf(doc, loc)
      return values ? { type: 'map', element: element(values) } : { type: 'dynamic', element: null }
    }
    default:
      return { type: 'dynamic', element: null }
  }
}
