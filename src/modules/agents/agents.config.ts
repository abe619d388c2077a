import { fromJson } from '../../kernel/db/database.js'
import { AppError } from '../../kernel/errors.js'
import { newId } from '../../kernel/ids.js'
import type { Kernel } from '../../kernel/kernel.js'
import { prepareTool, type StoredTool } from '../../kernel/tools/tools.js'
import type { AgentToolInputT, AgentT, ApprovalPolicyT } from './agents.schemas.js'
import type { AgentsTable } from './agents.tables.js'

/** A tool as an agent stores it: the kernel's StoredTool (sealed under the tool id), its id and approval policy. */
export type AgentToolRow = StoredTool & { id: string; approval: ApprovalPolicyT }

/** What a run executes with: the agent as it was when the run was created (agent_runs.agent_snapshot). */
export interface AgentSnapshot {
  instructions: string
  tools: AgentToolRow[]
  knowledge_base_ids: string[]
  max_steps: number
  approval_timeout_seconds: number
  ai: AgentT['ai']
}

export const toolsOf = (row: Pick<AgentsTable, 'tools'>): AgentToolRow[] => fromJson<AgentToolRow[]>(row.tools, [])

export function snapshotOf(row: AgentsTable): AgentSnapshot {
  return {
    instructions: row.instructions,
    tools: toolsOf(row),
    knowledge_base_ids: fromJson<string[]>(row.knowledge_base_ids, []),
    max_steps: Number(row.max_steps),
    approval_timeout_seconds: Number(row.approval_timeout_seconds),
    ai: fromJson(row.ai, { provider: null, temperature: null }),
  }
}

/**
 * Validates and seals a new tool list. A tool keeps its id (and so its sealed values) when its name is
 * kept; an HTTP tool sent without `headers` keeps the ones it had, so updating a tool never needs its
 * secrets re-typed.
 */
export async function prepareTools(k: Kernel, inputs: AgentToolInputT[], previous: AgentToolRow[]): Promise<AgentToolRow[]> {
  const seen = new Map<string, number>()
  const out: AgentToolRow[] = []
  for (const [i, input] of inputs.entries()) {
    const pointer = `/body/tools/${i}`
    if (seen.has(input.name)) throw invalidTools(`${pointer}/name`, `the same name as tools/${seen.get(input.name)}`)
    seen.set(input.name, i)
    const before = previous.find((t) => t.name === input.name && t.type === input.type)
    const id = before?.id ?? newId('tool')
    const { approval, ...tool } = input
    const stored = await prepareTool(k, tool, { ownerId: id, pointer })
    if (stored.type === 'http' && input.type === 'http' && input.headers === undefined && before?.headers_sealed) {
      stored.headers_sealed = before.headers_sealed
      stored.header_names = before.header_names
    }
    const policy = approval ?? { mode: 'never' }
    checkPolicy(policy, JSON.parse(stored.parameters) as { properties?: Record<string, unknown> }, `${pointer}/approval`)
    out.push({ ...stored, id, approval: policy })
  }
  return out
}

function checkPolicy(p: ApprovalPolicyT, parameters: { properties?: Record<string, unknown> }, pointer: string): void {
  if (p.mode !== 'when') {
    if (p.when) throw invalidTools(`${pointer}/when`, 'only with mode `when`')
    return
  }
  if (!p.when) throw invalidTools(`${pointer}/when`, 'required with mode `when`')
  if (!parameters.properties || !(p.when.argument in parameters.properties)) throw invalidTools(`${pointer}/when/argument`, `the tool has no argument '${p.when.argument}'`)
  const v = p.when.value
  const ok =
    p.when.operator === 'exists'
      ? v === undefined
      : ['in', 'not_in'].includes(p.when.operator)
        ? Array.isArray(v) && v.length > 0 && v.length <= 100 && v.every(isScalar)
        : ['gt', 'gte', 'lt', 'lte'].includes(p.when.operator)
          ? typeof v === 'number' && Number.isFinite(v)
          : isScalar(v)
  if (!ok) throw invalidTools(`${pointer}/when/value`, `not a valid value for operator ${p.when.operator}`)
}

const isScalar = (v: unknown): boolean => ['string', 'number', 'boolean'].includes(typeof v)

const invalidTools = (pointer: string, detail: string) => new AppError('invalid_agent_tools', `${pointer}: ${detail}.`, { errors: [{ pointer, detail }] })

/** Why a call needs a person's approval under its tool's policy, or null when it does not. */
export function approvalReason(tool: AgentToolRow, args: Record<string, unknown>): string | null {
  const p = tool.approval
  if (p.mode === 'never') return null
  if (p.mode === 'always') return `Every call of ${tool.name} needs approval.`
  const w = p.when!
  const v = args[w.argument]
  const hit = (() => {
    switch (w.operator) {
      case 'exists':
        return v !== undefined && v !== null
      case 'gt':
        return typeof v === 'number' && v > (w.value as number)
      case 'gte':
        return typeof v === 'number' && v >= (w.value as number)
      case 'lt':
        return typeof v === 'number' && v < (w.value as number)
      case 'lte':
        return typeof v === 'number' && v <= (w.value as number)
      case 'eq':
        return v === w.value
      case 'ne':
        return v !== w.value
      case 'in':
        return (w.value as unknown[]).includes(v)
      case 'not_in':
        return !(w.value as unknown[]).includes(v)
    }
  })()
  const shown = w.operator === 'exists' ? 'is given' : `${OPS[w.operator]} ${JSON.stringify(w.value)}`
  return hit ? `${tool.name} with ${w.argument} ${JSON.stringify(v)} (${w.argument} ${shown}) needs approval.` : null
}

const OPS: Record<string, string> = { gt: '>', gte: '≥', lt: '<', lte: '≤', eq: '=', ne: '≠', in: 'in', not_in: 'not in' }
