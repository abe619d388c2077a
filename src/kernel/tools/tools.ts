import { createHash } from 'node:crypto'
import { configure } from 'safe-stable-stringify'
import { AppError, type FieldError } from '../errors.js'
import type { Kernel } from '../kernel.js'
import { checkOutboundUrl, OutboundUrlRefused } from '../outbound/address-policy.js'
import { buildToolRequest, sendToolRequest } from './http-tool.js'
import { checkParameters, validateArguments } from './tool-parameters.js'
import type { ToolInputT, ToolViewT } from './tools.schemas.js'
import type { BuiltinTool, StoredTool, ToolCallError, ToolCallResult, ToolContext, ToolRequest, ToolSpec } from './tools.types.js'

/**
 * The tool model bots and agents share: a tool is stored as prepared here (validated, SSRF-checked,
 * header secrets sealed) and called here (arguments validated, HTTP signed and bounded, failures as
 * results, never thrown). See docs/tools.md.
 */
export type * from './tools.types.js'
export { buildToolRequest, HIDDEN, MAX_RESPONSE_BYTES } from './http-tool.js'
export { checkParameters, validateArguments } from './tool-parameters.js'

/** Headers the service sets on every call; a tool may not override them. */
const RESERVED_HEADERS = new Set([
  'host',
  'content-length',
  'content-type',
  'transfer-encoding',
  'connection',
  'user-agent',
  'accept',
  'idempotency-key',
  'svc-status-signature',
  'webhook-id',
  'webhook-timestamp',
  'webhook-signature',
])

/** The built-in tools of this build, registered by the modules that own what they do. */
export class ToolRegistry {
  private readonly tools = new Map<string, BuiltinTool>()
  registerBuiltin(t: BuiltinTool): void {
    const errors = checkParameters(t.parameters)
    if (errors.length > 0) throw new Error(`built-in tool ${t.name}: ${errors[0].pointer} ${errors[0].detail}`)
    // A second app in one process (tests) registers the same tools again: the last registration wins.
    this.tools.set(t.name, t)
  }
  builtin(name: string): BuiltinTool | undefined {
    return this.tools.get(name)
  }
  builtinNames(): string[] {
    return [...this.tools.keys()].sort()
  }
}

const invalid = (errors: FieldError[]) => new AppError('validation_failed', errors.map((e) => `${e.pointer}: ${e.detail}`).join('; '), { errors })

/**
 * Validates a tool and returns what to store. `ownerId` is the seal's context: pass the id of the row
 * (or bot/agent) the tool belongs to, and pass the same stored value back to callTool. Errors are 422
 * `validation_failed` with pointers under `ctx.pointer` (default `/body`: `/body/parameters/...`,
 * `/body/url`, `/body/name`; an agent's third tool would pass `/body/tools/2`).
 */
export async function prepareTool(k: Kernel, input: ToolInputT, ctx: { ownerId: string; pointer?: string }): Promise<StoredTool> {
  const at = ctx.pointer ?? '/body'
  if (input.type === 'builtin') {
    const registered = k.tools.builtin(input.name)
    if (!registered) {
      const known = k.tools.builtinNames()
      throw invalid([{ pointer: `${at}/name`, detail: `Unknown built-in tool '${input.name}'; the built-in tools are: ${known.join(', ') || 'none'}.` }])
    }
    const parameters = (input.parameters ?? registered.parameters) as Record<string, unknown>
    const errors = checkParameters(parameters, `${at}/parameters`)
    if (errors.length > 0) throw invalid(errors)
    return {
      type: 'builtin',
      name: input.name,
      description: input.description ?? registered.description,
      parameters: JSON.stringify(parameters),
      url: null,
      method: null,
      headers_sealed: null,
      header_names: null,
      timeout_ms: null,
      owner_id: ctx.ownerId,
    }
  }
  const parameters = (input.parameters ?? { type: 'object', properties: {} }) as Record<string, unknown>
  const errors = checkParameters(parameters, `${at}/parameters`)
  const headers = Object.entries(input.headers ?? {})
  for (const [name, value] of headers) {
    if (RESERVED_HEADERS.has(name.toLowerCase())) errors.push({ pointer: `${at}/headers/${name}`, detail: `${name} is set by the service on every call.` })
    else if (/[\r\n\0]/.test(value)) errors.push({ pointer: `${at}/headers/${name}`, detail: 'A header value may not contain line breaks or NUL.' })
  }
  let url: URL | null = null
  try {
    url = (await checkOutboundUrl(input.url, { allowPrivateNetworks: k.config.outbound.allowPrivateNetworks })).url
  } catch (err) {
    // A name that does not resolve today may tomorrow; only private installs may store one (like crawls).
    const unresolvableButAllowed = err instanceof OutboundUrlRefused && err.reason === 'unresolvable' && k.config.outbound.allowPrivateNetworks
    if (unresolvableButAllowed) url = new URL(input.url)
    else errors.push({ pointer: `${at}/url`, detail: err instanceof OutboundUrlRefused ? `${err.message}${refusalHint(err)}` : 'The URL could not be checked.' })
  }
  if (url && (url.username || url.password)) errors.push({ pointer: `${at}/url`, detail: 'Credentials in the URL are not allowed; use headers (stored encrypted).' })
  if (errors.length > 0) throw invalid(errors)
  const headerMap = Object.fromEntries(headers)
  return {
    type: 'http',
    name: input.name,
    description: input.description,
    parameters: JSON.stringify(parameters),
    url: url!.href,
    method: input.method ?? 'POST',
    headers_sealed: headers.length > 0 ? k.secrets.seal(JSON.stringify(headerMap), ctx.ownerId) : null,
    header_names: JSON.stringify(headers.map(([name]) => name)),
    timeout_ms: input.timeout_ms ?? 10_000,
    owner_id: ctx.ownerId,
  }
}

function refusalHint(err: OutboundUrlRefused): string {
  if (err.verdict?.class === 'forbidden') return ' This holds even with OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.'
  if (err.verdict?.class === 'private') return ' Operators of private installs may set OUTBOUND_ALLOW_PRIVATE_NETWORKS=true.'
  return ''
}

/** The same tool under another owner (a cloned bot): the header secrets are opened and sealed again. */
export function retargetTool(k: Kernel, tool: StoredTool, ownerId: string): StoredTool {
  const headers_sealed = tool.headers_sealed ? k.secrets.seal(k.secrets.open(tool.headers_sealed, tool.owner_id), ownerId) : null
  return { ...tool, headers_sealed, owner_id: ownerId }
}

/** The tool as an engine sees it. */
export const toolSpecOf = (tool: StoredTool): ToolSpec => ({ name: tool.name, description: tool.description, parameters: JSON.parse(tool.parameters) })

/** The public view of a stored tool (header values never leave the seal). */
export function toolView(row: StoredTool & { id: string; created_at: string }): ToolViewT {
  return {
    id: row.id,
    type: row.type,
    name: row.name,
    description: row.description,
    parameters: JSON.parse(row.parameters),
    url: row.url,
    method: row.method,
    header_names: row.header_names ? JSON.parse(row.header_names) : [],
    timeout_ms: row.timeout_ms,
    created_at: row.created_at,
  }
}

const stable = configure({ deterministic: true, bigint: false, circularValue: null })

/**
 * The Idempotency-Key of a call, derived from where it happens (`scope`: a run id, a message's request
 * key), its step, the tool and its arguments (key order ignored): a retried request or a resumed run
 * sends the same key, so the tool server can refuse a repeat.
 */
export function callIdempotencyKey(scope: string, step: number, name: string, args: unknown): string {
  const digest = createHash('sha256')
    .update(`${scope}\n${step}\n${name}\n${stable(args) ?? 'null'}`)
    .digest('base64url')
  return `tcall_${digest}`
}

/**
 * Runs one call. Never throws for a tool failure: the result says ok:false with a code and a detail the
 * caller puts in its reply. Arguments that fail the tool's schema are never sent.
 */
export async function callTool(k: Kernel, tool: StoredTool, args: Record<string, unknown>, ctx: ToolContext, signingSecret: string | null): Promise<ToolCallResult> {
  const started = performance.now()
  const done = (r: Pick<ToolCallResult, 'ok' | 'status' | 'output' | 'error'>, sent = args): ToolCallResult => ({
    call_id: ctx.callId,
    name: tool.name,
    arguments: sent,
    ...r,
    duration_ms: Math.round(performance.now() - started),
  })
  const checked = validateArguments(JSON.parse(tool.parameters), args)
  if (!checked.ok) {
    const detail = `The arguments do not match the tool's parameters: ${checked.errors.map((e) => `${e.pointer} ${e.detail}`).join('; ')}.`
    return done({ ok: false, status: null, output: null, error: { code: 'invalid_arguments', detail } })
  }
  if (tool.type === 'builtin') return done(await runBuiltin(k, tool, checked.value, ctx), checked.value)
  let req
  try {
    req = buildToolRequest(k, tool, checked.value, ctx, signingSecret)
  } catch (err) {
    k.log.error({ err: { message: (err as Error).message }, tool: tool.name }, 'tool headers could not be opened')
    return done({ ok: false, status: null, output: null, error: { code: 'tool_misconfigured', detail: "The tool's stored headers could not be decrypted; attach the tool again." } }, checked.value)
  }
  return done(await sendToolRequest(k, req, tool.timeout_ms ?? 10_000, ctx.signal), checked.value)
}

/**
 * What a call would do, without doing it (dry-runs): the validated arguments and, for an HTTP tool, the
 * exact request with the tool's header values hidden. Nothing leaves the service.
 */
export function previewToolCall(
  k: Kernel,
  tool: StoredTool,
  args: Record<string, unknown>,
  ctx: ToolContext,
  signingSecret: string | null,
): { arguments: Record<string, unknown>; error: ToolCallError | null; request: ToolRequest | null } {
  const checked = validateArguments(JSON.parse(tool.parameters), args)
  if (!checked.ok) {
    return { arguments: args, error: { code: 'invalid_arguments', detail: checked.errors.map((e) => `${e.pointer} ${e.detail}`).join('; ') }, request: null }
  }
  if (tool.type === 'builtin') return { arguments: checked.value, error: null, request: null }
  return { arguments: checked.value, error: null, request: buildToolRequest(k, tool, checked.value, ctx, signingSecret, true) }
}

async function runBuiltin(k: Kernel, tool: StoredTool, args: Record<string, unknown>, ctx: ToolContext) {
  const builtin = k.tools.builtin(tool.name)
  if (!builtin) return { ok: false, status: null, output: null, error: { code: 'unknown_tool', detail: `The built-in tool '${tool.name}' is not available in this build.` } }
  try {
    return { ok: true, status: null, output: (await builtin.run(ctx, args)) ?? null, error: null }
  } catch (err) {
    if (err instanceof AppError) return { ok: false, status: null, output: null, error: { code: err.code, detail: err.detail } }
    k.log.error({ err, tool: tool.name }, 'built-in tool failed')
    return { ok: false, status: null, output: null, error: { code: 'tool_failed', detail: `The built-in tool '${tool.name}' failed unexpectedly.` } }
  }
}
