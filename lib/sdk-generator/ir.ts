// The clients' model of the API, read from the OpenAPI document the server serves: every operation with
// the namespace and method name it gets in each client, its parameters and what it answers. The
// language emitters (emit-*.ts) only spell this model out; naming decisions live here, once.

export interface Param {
  name: string
  in: 'path' | 'query' | 'header'
  required: boolean
  /** JSON Schema of the parameter. */
  schema: Record<string, unknown>
  description: string | null
}

export interface Operation {
  operationId: string
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE'
  /** `/inbox/conversations/{id}`, relative to the base URL (…/v2). */
  path: string
  tag: string
  summary: string
  description: string
  /** Namespace segments in lowerCamel (`['inbox', 'conversations']`); empty for the client itself. */
  namespace: string[]
  /** lowerCamel method name (`list`, `create`, `dryRun`). */
  method_name: string
  path_params: Param[]
  query_params: Param[]
  /** Whether the operation takes a JSON body, and whether it must. */
  body: { required: boolean; schema: Record<string, unknown> } | null
  /** The success status and the JSON schema of its body (null: no JSON body). */
  success: { status: number; schema: Record<string, unknown> | null }
  /** A page of items (`object: list`, `data`, `has_more`, `next_cursor`) walked with `cursor`. */
  paginated: boolean
  /** Server-Sent Events (`text/event-stream`). */
  streaming: boolean
  /** Also answers a file (recording, PDF) of this media type. */
  file_media_type: string | null
  /** Accepts Idempotency-Key (every POST/PATCH/PUT/DELETE but event streams). */
  idempotent: boolean
  /** Public operations need no API key. */
  public: boolean
  deprecated: boolean
}

export interface ApiModel {
  version: string
  title: string
  /** The origin of the document's first server (`https://api.example.com`): the clients' default base URL. */
  origin: string
  operations: Operation[]
  /** components.schemas, as served. */
  schemas: Record<string, Record<string, unknown>>
}

const METHODS = ['get', 'post', 'put', 'patch', 'delete'] as const

export const camel = (s: string) => s.replace(/[-_]+([a-zA-Z0-9])/g, (_, c: string) => c.toUpperCase())
export const snake = (s: string) =>
  s
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/[-\s]+/g, '_')
    .toLowerCase()
export const pascal = (s: string) => {
  const c = camel(s)
  return c.charAt(0).toUpperCase() + c.slice(1)
}
const firstWord = (s: string) => /^[a-z]+/.exec(s)?.[0] ?? s

/**
 * Where an operation lives in the clients: its path's literal segments are the namespace
 * (`/inbox/conversations/{id}/messages` → inbox.conversations.messages) and the verb of its operationId the
 * method (`listMessages` → list). A last segment that is the action itself (`/assign`, `/dry-run`,
 * `/rotate-secret`: its first word is the verb) becomes the method on the namespace before it
 * (inbox.conversations.assign(id), agents.dryRun(id)). An operation at the root (`/`) is a method of the
 * client named by its operationId. Two operations that would share a method get the HTTP method appended
 * (`captureGet`), or else their operationId.
 */
export function placeOf(path: string, operationId: string): { namespace: string[]; method_name: string } {
  const segments = path.split('/').filter((s) => s && !s.startsWith('{'))
  if (segments.length === 0) return { namespace: [], method_name: operationId }
  const verb = firstWord(operationId)
  const last = segments[segments.length - 1]
  if (firstWord(camel(last)) === verb) return { namespace: segments.slice(0, -1).map(camel), method_name: camel(last) }
  return { namespace: segments.map(camel), method_name: verb }
}

type Json = Record<string, any>

/** The model of an OpenAPI 3.1 document as this server writes it. */
export function readModel(doc: Json): ApiModel {
  const params = (list: Json[] | undefined, where: Param['in']): Param[] =>
    (list ?? [])
      .map((p) => (p.$ref ? resolve(doc, p.$ref) : p))
      .filter((p) => p.in === where)
      .map((p) => ({ name: p.name, in: where, required: !!p.required, schema: p.schema ?? {}, description: p.description ?? null }))
  const operations: Operation[] = []
  for (const [path, item] of Object.entries<Json>(doc.paths)) {
    for (const m of METHODS) {
      const op = item[m]
      if (!op) continue
      const successCode = Object.keys(op.responses)
        .filter((c) => /^2\d\d$/.test(c) && c !== '206')
        .sort()[0]
      const success = op.responses[successCode] ?? {}
      const content: Json = success.content ?? {}
      const json = content['application/json']?.schema ?? null
      const resolved = json?.$ref ? resolve(doc, json.$ref) : json
      const files = Object.keys(content).filter((t) => t !== 'application/json' && t !== 'text/event-stream' && t !== 'application/problem+json')
      const requestBody = op.requestBody?.$ref ? resolve(doc, op.requestBody.$ref) : op.requestBody
      const bodySchema = requestBody?.content?.['application/json']?.schema ?? null
      operations.push({
        operationId: op.operationId,
        method: m.toUpperCase() as Operation['method'],
        path,
        tag: op.tags?.[0] ?? 'default',
        summary: op.summary ?? '',
        description: op.description ?? '',
        ...placeOf(path, op.operationId),
        path_params: params(op.parameters, 'path'),
        query_params: params(op.parameters, 'query'),
        body: bodySchema ? { required: !!requestBody.required, schema: bodySchema } : null,
        success: { status: Number(successCode), schema: json },
        paginated: !!resolved?.properties?.data && !!resolved?.properties?.next_cursor && !!op.parameters?.some((p: Json) => (p.$ref ? resolve(doc, p.$ref) : p).name === 'cursor'),
        streaming: !!content['text/event-stream'],
        file_media_type: files[0] ?? null,
        idempotent: !!op.parameters?.some((p: Json) => (p.$ref ? resolve(doc, p.$ref) : p).name === 'Idempotency-Key'),
        public: Array.isArray(op.security) && op.security.length === 0,
        deprecated: !!op.deprecated,
      })
    }
  }
  dedupe(operations)
  operations.sort((a, b) => a.operationId.localeCompare(b.operationId))
  const origin = doc.servers?.[0]?.url ? new URL(doc.servers[0].url).origin : 'https://api.example.com'
  return { version: doc.info.version, title: doc.info.title, origin, operations, schemas: doc.components?.schemas ?? {} }
}

/** Two operations in one namespace with one method name: the HTTP method appended, else the operationId. */
function dedupe(ops: Operation[]): void {
  const key = (o: Operation) => [...o.namespace, o.method_name].join('.')
  const groups = new Map<string, Operation[]>()
  for (const o of ops) groups.set(key(o), [...(groups.get(key(o)) ?? []), o])
  for (const group of groups.values()) {
    if (group.length < 2) continue
    const byMethod = new Set(group.map((o) => o.method))
    for (const o of group) o.method_name = byMethod.size === group.length ? `${o.method_name}${pascal(o.method.toLowerCase())}` : o.operationId
  }
}

export function resolve(doc: Json, ref: string): Json {
  return ref
    .replace(/^#\//, '')
    .split('/')
    .reduce((node: Json, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], doc)
}

/** Namespaces as a tree: each node's child namespaces and its own operations. */
export interface NamespaceNode {
  name: string
  path: string[]
  children: NamespaceNode[]
  operations: Operation[]
}

export function namespaceTree(model: ApiModel): NamespaceNode {
  const root: NamespaceNode = { name: '', path: [], children: [], operations: [] }
  for (const op of model.operations) {
    let node = root
    for (const [i, seg] of op.namespace.entries()) {
      let child = node.children.find((c) => c.name === seg)
      if (!child) node.children.push((child = { name: seg, path: op.namespace.slice(0, i + 1), children: [], operations: [] }))
      node = child
    }
    node.operations.push(op)
  }
  const sort = (n: NamespaceNode) => {
    n.children.sort((a, b) => a.name.localeCompare(b.name))
    n.operations.sort((a, b) => a.method_name.localeCompare(b.method_name))
    n.children.forEach(sort)
  }
  sort(root)
  return root
}
