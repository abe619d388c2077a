import { namespaceTree, pascal, snake, type ApiModel, type NamespaceNode, type Operation, type Param } from './ir.js'

// The generated part of the Ruby client (sdk/ruby/): the namespace classes with one method per operation,
// the client's namespace readers, the operation table, the version constants and the schema shapes (as
// documentation modules: responses are Hashes with string keys). The hand-written runtime (HTTP, retries,
// errors, pages, SSE, webhooks) lives beside it in sdk/ruby/lib/svc/*.rb. Output is deterministic: sorted
// by code unit, no dates, no absolute paths.

type Json = Record<string, any>

/** Request options every method takes as keywords (the runtime's Svc::Client::REQUEST_OPTIONS). */
const REQUEST_OPTIONS = ['idempotency_key', 'timeout', 'max_retries', 'api_version', 'headers']

/**
 * Names a generated method or namespace reader may not take because Ruby itself (or the runtime) relies on
 * them; such a name gets `_operation` appended (none does today). `send`, `clone`, `test` and `display`
 * are kept on purpose: the runtime never calls them on a resource (it uses `__send__`).
 */
const RUBY_TAKEN = new Set([
  'class',
  'initialize',
  'object_id',
  '__send__',
  '__id__',
  'public_send',
  'respond_to?',
  'respond_to_missing?',
  'method',
  'methods',
  'hash',
  'inspect',
  'to_s',
  'instance_variable_get',
  'instance_variable_set',
  'instance_variables',
  'freeze',
  'frozen?',
  'nil?',
  'is_a?',
  'kind_of?',
  'equal?',
  'eql?',
  'instance_of?',
  'singleton_class',
  'extend',
  'dup',
  'itself',
  'then',
  'tap',
  'define_singleton_method',
  'instance_exec',
  'instance_eval',
  '_call',
])
/** Public methods of Svc::Client a root namespace reader or root operation must not shadow. */
const CLIENT_TAKEN = new Set(['request', 'last_response', 'base_url', 'api_version', 'timeout', 'max_retries', 'default_headers', 'with_options', 'sandbox?', 'call_operation', 'init_namespaces'])
const RUBY_KEYWORDS = new Set([
  'BEGIN',
  'END',
  'alias',
  'and',
  'begin',
  'break',
  'case',
  'class',
  'def',
  'defined?',
  'do',
  'else',
  'elsif',
  'end',
  'ensure',
  'false',
  'for',
  'if',
  'in',
  'module',
  'next',
  'nil',
  'not',
  'or',
  'redo',
  'rescue',
  'retry',
  'return',
  'self',
  'super',
  'then',
  'true',
  'undef',
  'unless',
  'until',
  'when',
  'while',
  'yield',
])

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** A method or reader name in Ruby spelling (snake_case), moved out of Ruby's way when it must be. */
export function rubyName(lowerCamel: string, atRoot = false): string {
  const name = snake(lowerCamel)
  return RUBY_TAKEN.has(name) || (atRoot && CLIENT_TAKEN.has(name)) ? `${name}_operation` : name
}

/** A local variable (a path parameter). */
function rubyLocal(name: string): string {
  const local = snake(name).replace(/[^a-z0-9_]/g, '_')
  return RUBY_KEYWORDS.has(local) || REQUEST_OPTIONS.includes(local) || ['params', 'opts', 'block'].includes(local) ? `${local}_` : local
}

const className = (segment: string) => pascal(segment).replace(/[^A-Za-z0-9]/g, '')
const constName = (schema: string) => {
  const c = schema.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '')
  return /^[A-Z]/.test(c) ? c : `S${c}`
}
const rubyString = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`

/** Words of `text` as comment lines of at most `width` characters (long words stay whole). */
function wrap(text: string, width: number): string[] {
  const out: string[] = []
  for (const paragraph of text.replace(/\r\n?/g, '\n').split('\n')) {
    const words = paragraph.split(/\s+/).filter(Boolean)
    if (words.length === 0) {
      out.push('')
      continue
    }
    let line = ''
    for (const w of words) {
      if (line && line.length + 1 + w.length > width) {
        out.push(line)
        line = w
      } else line = line ? `${line} ${w}` : w
    }
    if (line) out.push(line)
  }
  while (out.length && out[out.length - 1] === '') out.pop()
  return out
}

const refName = (ref: string) => ref.split('/').pop() ?? ref

/** components.schemas of the model being emitted (set by emitRuby), to tell an object $ref from an enum's. */
let SCHEMAS: Record<string, Json> = {}

/** A $ref as a type: `Lead (Hash)` for an object, `LeadStatus (String)` for a string enum. */
function refType(ref: string): string {
  const name = refName(ref)
  const target = SCHEMAS[name]
  if (!target) return name
  if (target.properties || target.type === 'object') return `${name} (Hash)`
  if (Array.isArray(target.enum) || target.type === 'string') return `${name} (String)`
  if (target.type === 'integer' || target.type === 'number') return `${name} (${target.type === 'integer' ? 'Integer' : 'Float'})`
  return name
}

/** A JSON Schema as a YARD-ish Ruby type (`String`, `Array<Hash>`, `"a" | "b"`, `Lead`, `, nil`). */
function rubyType(s: Json | undefined, depth = 0): string {
  if (!s || typeof s !== 'object' || depth > 4) return 'Object'
  if (typeof s.$ref === 'string') return refType(s.$ref)
  if (s.const !== undefined) return JSON.stringify(s.const)
  if (Array.isArray(s.enum)) {
    const values = s.enum.map((v: unknown) => (v === null ? 'nil' : JSON.stringify(v)))
    return values.length > 8 ? `String (one of ${values.length})` : values.join(' | ')
  }
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (Array.isArray(union)) {
    const parts = [...new Set(union.map((u) => (u?.type === 'null' ? 'nil' : rubyType(u, depth + 1))))]
    return parts.join(', ')
  }
  const types: string[] = Array.isArray(s.type) ? s.type : s.type ? [s.type] : []
  if (types.length === 0) return s.properties ? 'Hash' : 'Object'
  const one = (t: string): string => {
    switch (t) {
      case 'string':
        return s.format ? `String (${s.format})` : s.contentMediaType ? `String (${s.contentMediaType})` : 'String'
      case 'integer':
        return 'Integer'
      case 'number':
        return 'Float'
      case 'boolean':
        return 'Boolean'
      case 'array':
        return `Array<${rubyType(s.items, depth + 1)}>`
      case 'object':
        return 'Hash'
      case 'null':
        return 'nil'
      default:
        return 'Object'
    }
  }
  return types.map(one).join(', ')
}

const firstSentence = (text: unknown) => (typeof text === 'string' ? text.replace(/\s+/g, ' ').trim() : '')

/** `- +name+ [Type] (required) description` lines for the properties of an object schema. */
function propertyLines(schema: Json | undefined, schemas: Record<string, Json>): string[] {
  let s = schema
  if (s?.$ref) s = schemas[refName(s.$ref)]
  if (!s) return []
  const union = (s.anyOf ?? s.oneOf) as Json[] | undefined
  if (!s.properties && Array.isArray(union)) {
    return [`one of: ${union.map((u) => (u.$ref ? refName(u.$ref) : (u.title ?? rubyType(u)))).join(', ')}`]
  }
  const required = new Set<string>(Array.isArray(s.required) ? s.required : [])
  return Object.keys(s.properties ?? {})
    .sort(cmp)
    .map((name) => {
      const p = s!.properties[name] as Json
      const bits = [`- +${name}+ [${rubyType(p)}]`]
      if (required.has(name)) bits.push('(required)')
      if (p.deprecated) bits.push('(deprecated)')
      const d = firstSentence(p.description)
      if (d) bits.push(d)
      return bits.join(' ')
    })
}

function paramLine(p: Param): string {
  const bits = [`- +${p.name}+ [${rubyType(p.schema)}]`]
  if (p.required) bits.push('(required)')
  if ((p.schema as Json).deprecated) bits.push('(deprecated)')
  const d = firstSentence(p.description ?? (p.schema as Json).description)
  if (d) bits.push(d)
  return bits.join(' ')
}

function returnDoc(op: Operation): string {
  if (op.streaming) return '[Enumerator<Svc::SSE::Event>, nil] the events (an Enumerator without a block; nil with one)'
  const schema = op.success.schema as Json | null
  const shape = schema?.$ref ? refName(schema.$ref) : schema ? rubyType(schema) : null
  if (op.paginated) return `[Svc::ListObject] a page${shape ? ` (${shape})` : ''}; +auto_paging_each+ walks every page`
  if (op.success.status === 204 || !schema) return op.file_media_type ? `[String] the file (${op.file_media_type}, binary)` : '[nil]'
  if (op.file_media_type) return `[String, Hash] the file (${op.file_media_type}, a binary String), or ${shape} when JSON is asked for`
  return `[Hash] ${shape}`
}

const GENERATED = (version: string) => `# Generated by sdk/generator from the OpenAPI document (API ${version}); do not edit.`

function header(model: ApiModel): string[] {
  return [GENERATED(model.version), '# frozen_string_literal: true', '']
}

/** The doc comment and definition of one operation's method, at `indent` levels. */
function methodLines(op: Operation, model: ApiModel, receiver: 'resource' | 'client', hybrid: string | null, indent: string): string[] {
  const name = rubyName(op.method_name, receiver === 'client')
  const locals = op.path_params.map((p) => rubyLocal(p.name))
  const out: string[] = []
  const c = (text = '') => out.push(text ? `${indent}# ${text}` : `${indent}#`)
  c(op.summary || op.operationId)
  c()
  c(`Operation +${op.operationId}+: ${op.method} ${op.path}${op.public ? ' (public: no API key needed)' : ''}`)
  // The description, less a first paragraph that only repeats the summary.
  const paragraphs = op.description.replace(/\r\n?/g, '\n').split(/\n\s*\n/)
  if (paragraphs[0]?.trim() === op.summary.trim()) paragraphs.shift()
  const description = paragraphs.join('\n\n').trim()
  if (description) {
    c()
    for (const l of wrap(description, 100)) c(l)
  }
  c()
  if (hybrid) {
    c(`Called without arguments it answers the +${hybrid}+ namespace instead (+${hybrid}.<method>+).`)
    c()
  }
  for (const p of op.path_params) c(`@param ${rubyLocal(p.name)} [String] path parameter +${p.name}+${p.description ? `: ${firstSentence(p.description)}` : ''}`)
  const bodyless = op.method === 'GET' || op.method === 'DELETE'
  if (bodyless) {
    if (op.query_params.length) {
      c('@param params [Hash, nil] the query:')
      for (const q of [...op.query_params].sort((a, b) => cmp(a.name, b.name))) c(`  ${paramLine(q)}`)
    } else c('@param params [Hash, nil] the query (this operation defines none)')
  } else if (op.body) {
    const title = (op.body.schema as Json).$ref ? refName((op.body.schema as Json).$ref) : (op.body.schema as Json).title
    c(`@param params [Hash${op.body.required ? '' : ', nil'}] the JSON body${title ? ` (${title})` : ''}${op.body.required ? '' : ', optional'}:`)
    for (const l of propertyLines(op.body.schema as Json, model.schemas)) c(`  ${l}`)
  } else c('@param params [Hash, String, nil] the body, if any (this operation defines none)')
  c(`@param opts [Hash] request options: ${REQUEST_OPTIONS.map((o) => `+${o}+`).join(', ')}; other keywords are added to params`)
  if (op.streaming) c('@yieldparam event [Svc::SSE::Event] each event as it arrives')
  c(`@return ${returnDoc(op)}`)
  c('@raise [Svc::APIError] an error answer (a subclass by status); [Svc::ConnectionError] no answer')
  if (op.deprecated) c('@deprecated the API marks this operation deprecated')
  const block = op.streaming ? ', &block' : ''
  const call =
    receiver === 'client'
      ? `call_operation(Svc::Generated::OPERATIONS.fetch(${rubyString(op.operationId)}), [${locals.join(', ')}], params, opts${block})`
      : `_call(${rubyString(op.operationId)}, [${locals.join(', ')}], params, opts${block})`
  if (hybrid) {
    const args = locals.map((l) => `${l} = nil`)
    out.push(`${indent}def ${name}(${[...args, 'params = nil', '**opts'].join(', ')}${block})`)
    out.push(`${indent}  return @${hybrid} if ${[...locals.map((l) => `${l}.nil?`), 'params.nil?', 'opts.empty?'].join(' && ')}`)
    out.push('')
  } else {
    out.push(`${indent}def ${name}(${[...locals, 'params = nil', '**opts'].join(', ')}${block})`)
  }
  out.push(`${indent}  ${call}`)
  out.push(`${indent}end`)
  return out
}

function sortedChildren(node: NamespaceNode): NamespaceNode[] {
  return [...node.children].sort((a, b) => cmp(a.name, b.name))
}
function sortedOperations(node: NamespaceNode): Operation[] {
  return [...node.operations].sort((a, b) => cmp(a.method_name, b.method_name) || cmp(a.operationId, b.operationId))
}

/** `client.inbox.conversations` for a namespace path. */
const rubyPath = (path: string[]) => ['client', ...path.map((s, i) => rubyName(s, i === 0))].join('.')

/** A namespace class and its children, nested, at `depth` (2 = inside `module Svc; module Resources`). */
function classLines(node: NamespaceNode, model: ApiModel, depth: number, qualified: string): string[] {
  const ind = '  '.repeat(depth)
  const out: string[] = []
  const children = sortedChildren(node)
  const ops = sortedOperations(node)
  const opNames = new Set(ops.map((o) => rubyName(o.method_name)))
  const klass = className(node.name)
  const full = `${qualified}::${klass}`
  out.push(`${ind}# The +${node.path.join('.')}+ namespace: +${rubyPath(node.path)}+.`)
  out.push(`${ind}class ${klass} < Svc::Resource`)
  const body: string[] = []
  if (children.length) {
    body.push(`${ind}  def initialize(client)`)
    body.push(`${ind}    super`)
    for (const ch of children) body.push(`${ind}    @${rubyName(ch.name)} = ${className(ch.name)}.new(client)`)
    body.push(`${ind}  end`)
    for (const ch of children) {
      const reader = rubyName(ch.name)
      if (opNames.has(reader)) continue // an operation of the same name answers the namespace when called bare
      body.push('')
      body.push(`${ind}  # +${rubyPath(ch.path)}+`)
      body.push(`${ind}  # @return [${full}::${className(ch.name)}]`)
      body.push(`${ind}  attr_reader :${reader}`)
    }
  }
  for (const op of ops) {
    const name = rubyName(op.method_name)
    const hybrid = children.some((ch) => rubyName(ch.name) === name) ? name : null
    body.push('')
    body.push(...methodLines(op, model, 'resource', hybrid, `${ind}  `))
  }
  for (const ch of children) {
    body.push('')
    body.push(...classLines(ch, model, depth + 1, full))
  }
  while (body.length && body[0] === '') body.shift()
  out.push(...body)
  out.push(`${ind}end`)
  return out
}

function resourceFile(node: NamespaceNode, model: ApiModel): string {
  const lines = [...header(model), 'module Svc', '  module Resources', ...classLines(node, model, 2, 'Svc::Resources'), '  end', 'end']
  return `${lines.join('\n')}\n`
}

function clientMethodsFile(root: NamespaceNode, model: ApiModel): string {
  const children = sortedChildren(root)
  const lines = [...header(model), 'module Svc', '  module Generated', "    # The client's namespaces and the operations of the API root, mixed into Svc::Client.", '    module ClientMethods']
  const body: string[] = []
  for (const ch of children) {
    body.push('')
    body.push(`      # +${rubyPath(ch.path)}+`)
    body.push(`      # @return [Svc::Resources::${className(ch.name)}]`)
    body.push(`      attr_reader :${rubyName(ch.name, true)}`)
  }
  for (const op of sortedOperations(root)) {
    body.push('')
    body.push(...methodLines(op, model, 'client', null, '      '))
  }
  body.push('')
  body.push('      private')
  body.push('')
  body.push('      def init_namespaces')
  for (const ch of children) body.push(`        @${rubyName(ch.name, true)} = Svc::Resources::${className(ch.name)}.new(self)`)
  body.push('      end')
  while (body.length && body[0] === '') body.shift()
  lines.push(...body, '    end', '  end', 'end')
  return `${lines.join('\n')}\n`
}

function operationsFile(model: ApiModel): string {
  const ops = [...model.operations].sort((a, b) => cmp(a.operationId, b.operationId))
  const lines = [
    ...header(model),
    'module Svc',
    '  module Generated',
    '    # Every operation of the API by operationId: its HTTP method and path, where the client has it, and how it',
    '    # answers (a page, an event stream, a file).',
    '    OPERATIONS = {',
  ]
  for (const op of ops) {
    const place = [...op.namespace.map((s, i) => rubyName(s, i === 0)), rubyName(op.method_name, op.namespace.length === 0)].join('.')
    const fields = [
      `operation_id: ${rubyString(op.operationId)}`,
      `http_method: :${op.method.toLowerCase()}`,
      `path: ${rubyString(op.path)}`,
      `ruby_name: ${rubyString(place)}`,
      `paginated: ${op.paginated}`,
      `streaming: ${op.streaming}`,
      `file_media_type: ${op.file_media_type ? rubyString(op.file_media_type) : 'nil'}`,
      `idempotent: ${op.idempotent}`,
      `public: ${op.public}`,
    ]
    lines.push(`      ${rubyString(op.operationId)} => Svc::Operation.new(`)
    for (const f of fields) lines.push(`        ${f},`)
    lines.push('      ).freeze,')
  }
  lines.push('    }.freeze', '  end', 'end')
  return `${lines.join('\n')}\n`
}

function modelsFile(model: ApiModel): string {
  const lines = [
    ...header(model),
    'module Svc',
    '  # The shapes of the API (components.schemas), for reference: responses are plain Hashes with string keys.',
    '  # Each object schema has FIELDS (property => type, as documented) and REQUIRED; each enum VALUES.',
    '  module Models',
  ]
  const names = Object.keys(model.schemas).sort(cmp)
  const used = new Set<string>()
  const body: string[] = []
  for (const name of names) {
    const s = model.schemas[name] as Json
    let c = constName(name)
    while (used.has(c)) c = `${c}_`
    used.add(c)
    body.push('')
    const description = firstSentence(s.description)
    body.push(`    # ${name}${description ? ':' : ''}`)
    for (const l of wrap(description, 100)) body.push(`    #   ${l}`)
    if (s.properties) {
      body.push('    #')
      for (const l of propertyLines(s, model.schemas)) body.push(`    # ${l}`)
    } else body.push(`    # Type: ${rubyType(s)}`)
    body.push(`    module ${c}`)
    if (s.properties) {
      body.push('      FIELDS = {')
      for (const p of Object.keys(s.properties).sort(cmp)) body.push(`        ${rubyString(p)} => ${rubyString(rubyType(s.properties[p]))},`)
      body.push('      }.freeze')
      const req = (Array.isArray(s.required) ? [...s.required] : []).sort(cmp)
      body.push(`      REQUIRED = [${req.map(rubyString).join(', ')}].freeze`)
    }
    if (Array.isArray(s.enum)) body.push(`      VALUES = [${s.enum.map((v: unknown) => (v === null ? 'nil' : typeof v === 'string' ? rubyString(v) : JSON.stringify(v))).join(', ')}].freeze`)
    body.push('    end')
  }
  while (body.length && body[0] === '') body.shift()
  lines.push(...body, '  end', 'end')
  return `${lines.join('\n')}\n`
}

function versionFile(model: ApiModel): string {
  const origin = model.origin
  const lines = [
    ...header(model),
    'module Svc',
    '  # The version of this library: the API version it was generated from.',
    `  VERSION = ${rubyString(model.version)}`,
    '  # Sent as Svc-Api-Version unless the client or the call pins another.',
    `  API_VERSION = ${rubyString(model.version)}`,
    '  # The origin of the document\'s first server; "/v2" or "/sandbox/v2" is appended by key.',
    `  DEFAULT_BASE_URL = ${rubyString(origin)}`,
    'end',
  ]
  return `${lines.join('\n')}\n`
}

function indexFile(root: NamespaceNode, model: ApiModel): string {
  const lines = [
    ...header(model),
    "require_relative 'generated/operations'",
    ...sortedChildren(root).map((ch) => `require_relative 'generated/resources/${rubyName(ch.name, true)}'`),
    "require_relative 'generated/client_methods'",
    '',
    'module Svc',
    "  autoload :Models, File.expand_path('generated/models', __dir__)",
    'end',
  ]
  return `${lines.join('\n')}\n`
}

/** The generated files of the ruby client, by path under sdk/ruby/. */
export function emitRuby(model: ApiModel): Map<string, string> {
  SCHEMAS = model.schemas as Record<string, Json>
  const root = namespaceTree(model)
  const files = new Map<string, string>()
  files.set('lib/svc/version.rb', versionFile(model))
  files.set('lib/svc/generated.rb', indexFile(root, model))
  files.set('lib/svc/generated/operations.rb', operationsFile(model))
  files.set('lib/svc/generated/client_methods.rb', clientMethodsFile(root, model))
  files.set('lib/svc/generated/models.rb', modelsFile(model))
  for (const ch of sortedChildren(root)) files.set(`lib/svc/generated/resources/${rubyName(ch.name, true)}.rb`, resourceFile(ch, model))
  return new Map([...files].sort(([a], [b]) => cmp(a, b)))
}
