import type { ToolSpec } from '../ai/ai.types.js'
import type { Tenant } from '../tenant.js'
import type { HttpMethodT } from './tools.schemas.js'

export type { ToolSpec }

/** What a call runs with: who asked, under which id and idempotency key, and how to stop it. */
export interface ToolContext {
  tenant: Tenant
  /** Id of this call (the engine's call_id, or the caller's step id). */
  callId: string
  /** Sent as `Idempotency-Key` (and `webhook-id`); the same for a retried or resumed call: see callIdempotencyKey. */
  idempotencyKey: string
  conversationId?: string | null
  /** Aborts an HTTP call in flight (agent run cancelled): the result is ok:false with code 'cancelled'. */
  signal?: AbortSignal | null
  [k: string]: unknown
}

/** A built-in tool, registered by the module that owns what it does (search_knowledge, handoff_to_human, …). */
export interface BuiltinTool {
  name: string
  description: string
  parameters: Record<string, unknown>
  /** Its output goes back to the engine; an AppError or exception becomes ok:false with its code and detail. */
  run(ctx: ToolContext, args: Record<string, unknown>): Promise<unknown>
}

/**
 * A tool as stored by the module that attaches it (one row, or one entry of a frozen version): what
 * `prepareTool` returns. `parameters` is JSON text; `headers_sealed` is the header map sealed with
 * kernel.secrets under `owner_id` as context, `header_names` (JSON array) what views show.
 */
export interface StoredTool {
  type: 'http' | 'builtin'
  name: string
  description: string
  parameters: string
  url: string | null
  method: HttpMethodT | null
  headers_sealed: string | null
  header_names: string | null
  timeout_ms: number | null
  /** The seal's context: the id the caller passed to prepareTool (a sealed value copied elsewhere does not open). */
  owner_id: string
}

export interface ToolCallError {
  /**
   * invalid_arguments, unknown_tool, url_refused, timeout, cancelled, connection_failed, http_error,
   * redirect_not_followed, response_too_large, tool_misconfigured, tool_failed, or a built-in's AppError code.
   */
  code: string
  detail: string
}

export interface ToolCallResult {
  call_id: string
  name: string
  arguments: Record<string, unknown>
  ok: boolean
  /** The HTTP status of the tool's answer; null for built-ins and calls that got no answer. */
  status: number | null
  /** Parsed JSON when the answer was JSON, else its text; a built-in's return value. Also set for non-2xx answers. */
  output: unknown
  error: ToolCallError | null
  duration_ms: number
}

/** The exact request an HTTP tool call sends (or would send: dry-runs show it with header values hidden). */
export interface ToolRequest {
  method: HttpMethodT
  url: string
  headers: Record<string, string>
  body: string | null
}
