import type { components } from '../../api/schema.js'
import { Field } from '../../ui/components.js'
import type { Agent } from './common.js'
import { json, parseJson } from './common.js'

type Body = components['requestBodies']['CreateAgentBody']['content']['application/json']
export type ToolInput = NonNullable<Body['tools']>[number]
type Policy = components['schemas']['AgentApprovalPolicy']
type Operator = components['schemas']['AgentApprovalCondition']['operator']
const OPERATORS: Operator[] = ['gt', 'gte', 'lt', 'lte', 'eq', 'ne', 'in', 'not_in', 'exists']
const METHODS = ['POST', 'GET', 'PUT', 'PATCH', 'DELETE'] as const

/** One tool as the form edits it: text fields, JSON kept as the text typed until it is sent. */
export interface ToolDraft {
  key: number
  type: 'http' | 'builtin'
  name: string
  description: string
  url: string
  method: (typeof METHODS)[number]
  timeout: string
  parameters: string
  /** A built-in's parameters as stored (shown, not sent back: an empty field keeps them). */
  storedParameters: string
  /** Empty: the stored header values are kept (they are secrets the API never shows). */
  headers: string
  headerNames: string[]
  mode: Policy['mode']
  argument: string
  operator: Operator
  value: string
}

let seq = 0
export const blankTool = (): ToolDraft => ({ key: ++seq, type: 'http', name: '', description: '', url: '', method: 'POST', timeout: '', parameters: '', storedParameters: '', headers: '', headerNames: [], mode: 'never', argument: '', operator: 'gt', value: '' })

export function toolDraft(t: Agent['tools'][number]): ToolDraft {
  const w = t.approval.when
  return {
    ...blankTool(),
    type: t.type,
    name: t.name,
    description: t.description,
    url: t.url ?? '',
    method: (METHODS as readonly string[]).includes(t.method ?? '') ? (t.method as ToolDraft['method']) : 'POST',
    timeout: t.timeout_ms ? String(t.timeout_ms) : '',
    // A built-in brings its own parameters: sending them back is not needed.
    parameters: t.type === 'http' && Object.keys(t.parameters).length ? json(t.parameters) : '',
    storedParameters: t.type === 'builtin' && Object.keys(t.parameters).length ? json(t.parameters) : '',
    headerNames: t.header_names,
    mode: t.approval.mode,
    argument: w?.argument ?? '',
    operator: w?.operator ?? 'gt',
    value: w?.value === undefined ? '' : typeof w.value === 'string' ? w.value : JSON.stringify(w.value),
  }
}

function parametersHint(tool: ToolDraft): string {
  if (tool.type === 'http') return '{"type": "object", "properties": {…}, "required": […]}'
  return tool.storedParameters ? 'Empty keeps the parameters it has now (below); a JSON Schema typed here replaces them.' : "Leave empty for the built-in's own."
}

/** A condition's value: JSON when it reads as JSON (100, true, ["a","b"]), else the text itself. */
const conditionValue = (s: string): unknown => {
  try {
    return JSON.parse(s)
  } catch {
    return s
  }
}

/** The tool as the API takes it; JSON fields that do not parse are reported under their pointer. */
export function toolInput(t: ToolDraft, i: number, errors: { pointer: string; detail: string }[]): ToolInput {
  const approval: Policy = t.mode === 'when' ? { mode: 'when', when: { argument: t.argument.trim(), operator: t.operator, ...(t.operator === 'exists' ? {} : { value: conditionValue(t.value.trim()) }) } } : { mode: t.mode }
  const parameters = parseJson(t.parameters, `/tools/${i}/parameters`, errors) as ToolInput['parameters']
  if (t.type === 'builtin') return { type: 'builtin', name: t.name.trim(), ...(t.description.trim() ? { description: t.description.trim() } : {}), ...(parameters ? { parameters } : {}), approval }
  const headers = parseJson(t.headers, `/tools/${i}/headers`, errors) as Record<string, string> | undefined
  return {
    type: 'http',
    name: t.name.trim(),
    description: t.description,
    url: t.url.trim(),
    method: t.method,
    ...(t.timeout.trim() ? { timeout_ms: Number(t.timeout) } : {}),
    ...(parameters ? { parameters } : {}),
    ...(headers ? { headers } : {}),
    approval,
  }
}

/** The fields of one tool, with its approval policy. */
export function ToolFields({ tool, index, onChange, onRemove }: { tool: ToolDraft; index: number; onChange: (t: ToolDraft) => void; onRemove: () => void }) {
  const set = (k: keyof ToolDraft) => (e: { currentTarget: { value: string } }) => onChange({ ...tool, [k]: e.currentTarget.value })
  const n = index + 1
  return (
    <fieldset class="tool-draft">
      <legend>
        Tool {n}
        {tool.name ? `: ${tool.name}` : ''}
      </legend>
      <div class="grid-fields">
        <Field label={`Tool ${n} type`}>
          {(id) => (
            <select id={id} value={tool.type} onChange={set('type')}>
              <option value="http">HTTP request</option>
              <option value="builtin">Built-in</option>
            </select>
          )}
        </Field>
        <Field label={`Tool ${n} name`} hint={tool.type === 'builtin' ? 'search_knowledge or handoff_to_human.' : 'Lower case, digits and _.'}>
          {(id, hint) => <input id={id} aria-describedby={hint} required value={tool.name} onInput={set('name')} />}
        </Field>
      </div>
      <Field label={`Tool ${n} description`} hint="When to use it: engines choose tools by this text.">
        {(id, hint) => <textarea id={id} aria-describedby={hint} required={tool.type === 'http'} value={tool.description} onInput={set('description')} />}
      </Field>
      {tool.type === 'http' && (
        <>
          <div class="grid-fields">
            <Field label={`Tool ${n} URL`}>{(id) => <input id={id} type="url" required value={tool.url} onInput={set('url')} />}</Field>
            <Field label={`Tool ${n} method`}>
              {(id) => (
                <select id={id} value={tool.method} onChange={set('method')}>
                  {METHODS.map((m) => (
                    <option value={m}>{m}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={`Tool ${n} timeout (ms)`}>{(id) => <input id={id} type="number" min={1} value={tool.timeout} onInput={set('timeout')} />}</Field>
          </div>
          <Field label={`Tool ${n} headers (JSON)`} hint={tool.headerNames.length ? `Stored: ${tool.headerNames.join(', ')}. Leave empty to keep their values; values are never shown.` : 'Optional, e.g. {"Authorization": "Bearer …"}: stored encrypted, never shown again.'}>
            {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={tool.headers} onInput={set('headers')} />}
          </Field>
        </>
      )}
      <Field label={`Tool ${n} parameters (JSON Schema)`} hint={parametersHint(tool)}>
        {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={tool.parameters} onInput={set('parameters')} />}
      </Field>
      {tool.type === 'builtin' && tool.storedParameters && (
        <details class="stored-parameters">
          <summary>Tool {n}'s parameters now</summary>
          <pre class="code">{tool.storedParameters}</pre>
        </details>
      )}
      <div class="grid-fields">
        <Field label={`Tool ${n} approval`}>
          {(id) => (
            <select id={id} value={tool.mode} onChange={set('mode')}>
              <option value="never">Never: call at once</option>
              <option value="always">Always: a person approves each call</option>
              <option value="when">When an argument matches</option>
            </select>
          )}
        </Field>
        {tool.mode === 'when' && (
          <>
            <Field label={`Tool ${n} approval argument`}>{(id) => <input id={id} required value={tool.argument} onInput={set('argument')} />}</Field>
            <Field label={`Tool ${n} approval operator`}>
              {(id) => (
                <select id={id} value={tool.operator} onChange={set('operator')}>
                  {OPERATORS.map((o) => (
                    <option value={o}>{o.replace('_', ' ')}</option>
                  ))}
                </select>
              )}
            </Field>
            {tool.operator !== 'exists' && (
              <Field label={`Tool ${n} approval value`} hint="A number, text, true/false; a JSON list for in / not in.">
                {(id, hint) => <input id={id} aria-describedby={hint} value={tool.value} onInput={set('value')} />}
              </Field>
            )}
          </>
        )}
      </div>
      <div class="form-actions">
        <button type="button" class="danger" onClick={onRemove}>
          Remove tool {n}
        </button>
      </div>
    </fieldset>
  )
}
