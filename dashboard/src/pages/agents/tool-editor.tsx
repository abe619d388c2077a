import type { components } from '../../api/schema.js'
import { Field } from '../../ui/components.js'
import type { Agent } from './common.js'
import { json, parseJson } from './common.js'
import { t } from '../../i18n/index.js'

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
export const blankTool = (): ToolDraft => ({
  key: ++seq,
  type: 'http',
  name: '',
  description: '',
  url: '',
  method: 'POST',
  timeout: '',
  parameters: '',
  storedParameters: '',
  headers: '',
  headerNames: [],
  mode: 'never',
  argument: '',
  operator: 'gt',
  value: '',
})

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
  return tool.storedParameters ? t('agents.toolEditor.emptyKeepsTheParametersIt') : t('agents.toolEditor.leaveEmptyForTheBuilt')
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
  const approval: Policy =
    t.mode === 'when' ? { mode: 'when', when: { argument: t.argument.trim(), operator: t.operator, ...(t.operator === 'exists' ? {} : { value: conditionValue(t.value.trim()) }) } } : { mode: t.mode }
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
        {t('agents.toolEditor.toolN', { n })}
        {tool.name ? `: ${tool.name}` : ''}
      </legend>
      <div class="grid-fields">
        <Field label={t('agents.toolEditor.toolNType', { n })}>
          {(id) => (
            <select id={id} value={tool.type} onChange={set('type')}>
              <option value="http">{t('agents.toolEditor.httpRequest')}</option>
              <option value="builtin">{t('agents.agentForm.builtIn')}</option>
            </select>
          )}
        </Field>
        <Field label={t('agents.toolEditor.toolNName', { n })} hint={tool.type === 'builtin' ? t('agents.toolEditor.searchKnowledgeOrHandoffTo') : t('agents.toolEditor.lowerCaseDigitsAnd')}>
          {(id, hint) => <input id={id} aria-describedby={hint} required value={tool.name} onInput={set('name')} />}
        </Field>
      </div>
      <Field label={t('agents.toolEditor.toolNDescription', { n })} hint={t('agents.toolEditor.whenToUseItEngines')}>
        {(id, hint) => <textarea id={id} aria-describedby={hint} required={tool.type === 'http'} value={tool.description} onInput={set('description')} />}
      </Field>
      {tool.type === 'http' && (
        <>
          <div class="grid-fields">
            <Field label={t('agents.toolEditor.toolNUrl', { n })}>{(id) => <input id={id} type="url" required value={tool.url} onInput={set('url')} />}</Field>
            <Field label={t('agents.toolEditor.toolNMethod', { n })}>
              {(id) => (
                <select id={id} value={tool.method} onChange={set('method')}>
                  {METHODS.map((m) => (
                    <option value={m}>{m}</option>
                  ))}
                </select>
              )}
            </Field>
            <Field label={t('agents.toolEditor.toolNTimeoutMs', { n })}>{(id) => <input id={id} type="number" min={1} value={tool.timeout} onInput={set('timeout')} />}</Field>
          </div>
          <Field
            label={t('agents.toolEditor.toolNHeadersJson', { n })}
            hint={tool.headerNames.length ? t('agents.toolEditor.storedValueLeaveEmptyTo', { value: tool.headerNames.join(', ') }) : t('agents.toolEditor.optionalEGAuthorizationBearer')}
          >
            {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={tool.headers} onInput={set('headers')} />}
          </Field>
        </>
      )}
      <Field label={t('agents.toolEditor.toolNParametersJsonSchema', { n })} hint={parametersHint(tool)}>
        {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={tool.parameters} onInput={set('parameters')} />}
      </Field>
      {tool.type === 'builtin' && tool.storedParameters && (
        <details class="stored-parameters">
          <summary>{t('agents.toolEditor.toolNSParametersNow', { n })}</summary>
          <pre class="code">{tool.storedParameters}</pre>
        </details>
      )}
      <div class="grid-fields">
        <Field label={t('agents.toolEditor.toolNApproval', { n })}>
          {(id) => (
            <select id={id} value={tool.mode} onChange={set('mode')}>
              <option value="never">{t('agents.toolEditor.neverCallAtOnce')}</option>
              <option value="always">{t('agents.toolEditor.alwaysAPersonApprovesEach')}</option>
              <option value="when">{t('agents.toolEditor.whenAnArgumentMatches')}</option>
            </select>
          )}
        </Field>
        {tool.mode === 'when' && (
          <>
            <Field label={t('agents.toolEditor.toolNApprovalArgument', { n })}>{(id) => <input id={id} required value={tool.argument} onInput={set('argument')} />}</Field>
            <Field label={t('agents.toolEditor.toolNApprovalOperator', { n })}>
              {(id) => (
                <select id={id} value={tool.operator} onChange={set('operator')}>
                  {OPERATORS.map((o) => (
                    <option value={o}>{o.replace('_', ' ')}</option>
                  ))}
                </select>
              )}
            </Field>
            {tool.operator !== 'exists' && (
              <Field label={t('agents.toolEditor.toolNApprovalValue', { n })} hint={t('agents.toolEditor.aNumberTextTrueFalse')}>
                {(id, hint) => <input id={id} aria-describedby={hint} value={tool.value} onInput={set('value')} />}
              </Field>
            )}
          </>
        )}
      </div>
      <div class="form-actions">
        <button type="button" class="danger" onClick={onRemove}>
          {t('agents.toolEditor.removeToolN', { n })}
        </button>
      </div>
    </fieldset>
  )
}
