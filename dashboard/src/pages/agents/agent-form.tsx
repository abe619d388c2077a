import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Field, FormActions, ProblemView } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Agent, LocalError } from './common.js'
import { json, LocalErrors, parseJson } from './common.js'
import type { ToolDraft } from './tool-editor.js'
import { blankTool, ToolFields, toolDraft, toolInput } from './tool-editor.js'
import { t } from '../../i18n/index.js'

type Body = components['requestBodies']['CreateAgentBody']['content']['application/json']
type Created = components['schemas']['CreatedAgent']

interface Draft {
  name: string
  description: string
  instructions: string
  status: 'active' | 'disabled'
  maxSteps: string
  runTimeout: string
  approvalTimeout: string
  provider: '' | 'builtin' | 'openai'
  temperature: string
  bases: string[]
  inputSchema: string
  metadata: string
  tools: ToolDraft[]
}

const draftOf = (a?: Agent): Draft => ({
  name: a?.name ?? '',
  description: a?.description ?? '',
  instructions: a?.instructions ?? '',
  status: a?.status ?? 'active',
  maxSteps: a ? String(a.max_steps) : '',
  runTimeout: a ? String(a.run_timeout_seconds) : '',
  approvalTimeout: a ? String(a.approval_timeout_seconds) : '',
  provider: a?.ai.provider ?? '',
  temperature: a?.ai.temperature == null ? '' : String(a.ai.temperature),
  bases: a?.knowledge_base_ids ?? [],
  inputSchema: a?.input_schema ? json(a.input_schema) : '',
  metadata: a && Object.keys(a.metadata).length ? json(a.metadata) : '',
  tools: a?.tools.map(toolDraft) ?? [],
})

const num = (s: string) => (s.trim() === '' ? undefined : Number(s))

/** The body for createAgent / updateAgent. Empty optional fields are left out so the API's defaults apply. */
function bodyOf(d: Draft, editing: boolean, errors: LocalError[]): Body {
  const inputSchema = parseJson(d.inputSchema, '/input_schema', errors) as Body['input_schema']
  const metadata = parseJson(d.metadata, '/metadata', errors) as Body['metadata']
  const tools = d.tools.map((t, i) => toolInput(t, i, errors))
  const temperature = num(d.temperature)
  const body: Body = {
    name: d.name.trim(),
    description: d.description.trim() || null,
    status: d.status,
    tools,
    knowledge_base_ids: d.bases,
    ...(d.instructions.trim() || editing ? { instructions: d.instructions } : {}),
    ...(num(d.maxSteps) !== undefined ? { max_steps: num(d.maxSteps) } : {}),
    ...(num(d.runTimeout) !== undefined ? { run_timeout_seconds: num(d.runTimeout) } : {}),
    ...(num(d.approvalTimeout) !== undefined ? { approval_timeout_seconds: num(d.approvalTimeout) } : {}),
    ...(editing || d.provider || temperature !== undefined ? { ai: { provider: d.provider || null, temperature: temperature ?? null } } : {}),
    // Cleared on edit: null removes the schema, so text inputs are accepted again.
    ...(inputSchema !== undefined ? { input_schema: inputSchema } : editing ? { input_schema: null } : {}),
    ...(metadata !== undefined ? { metadata } : editing ? { metadata: {} } : {}),
  }
  return body
}

/** Creates an agent (agent undefined) or edits one; the API checks every field and its problem is shown as it says it. */
export function AgentForm({ agent, onSaved }: { agent?: Agent; onSaved: (a: Agent | Created) => void }) {
  const { api } = useWorkspace()
  const [d, setD] = useState<Draft>(() => draftOf(agent))
  const [local, setLocal] = useState<LocalError[]>([])
  const bases = useResource((a) => ok(a.client.GET('/knowledge/bases', { params: { query: { limit: 100 } } })), [])
  const set = (k: keyof Draft) => (e: { currentTarget: { value: string } }) => setD((x) => ({ ...x, [k]: e.currentTarget.value }))
  const save = useAction(async () => {
    const errors: LocalError[] = []
    const body = bodyOf(d, !!agent, errors)
    setLocal(errors)
    if (errors.length) return
    onSaved(agent ? await ok(api.client.PATCH('/agents/{id}', { params: { path: { id: agent.id } }, body })) : await ok(api.client.POST('/agents', { body })))
  })
  const baseList = bases.data?.data ?? []
  const unknownBases = d.bases.filter((id) => !baseList.some((b) => b.id === id))
  return (
    <form
      class="agent-form"
      aria-label={agent ? t('agents.agentForm.editName', { name: agent.name }) : t('agents.agentEdit.newAgent')}
      onSubmit={(e) => {
        e.preventDefault()
        void save.run()
      }}
    >
      <section class="panel" aria-labelledby="about-title">
        <h2 id="about-title">{t('agents.agentForm.about')}</h2>
        <Field label={t('agents.agentForm.name')}>{(id) => <input id={id} required value={d.name} onInput={set('name')} />}</Field>
        <Field label={t('agents.agentForm.description')}>{(id) => <input id={id} value={d.description} onInput={set('description')} />}</Field>
        <Field label={t('agents.agentForm.instructions')} hint={t('agents.agentForm.givenToTheEngineWith')}>
          {(id, hint) => <textarea id={id} aria-describedby={hint} value={d.instructions} onInput={set('instructions')} />}
        </Field>
        <Field label={t('agents.agentForm.status')} hint={t('agents.agentForm.aDisabledAgentRefusesNew')}>
          {(id, hint) => (
            <select id={id} aria-describedby={hint} value={d.status} onChange={set('status')}>
              <option value="active">{t('agents.agentForm.active')}</option>
              <option value="disabled">{t('agents.agentForm.disabled')}</option>
            </select>
          )}
        </Field>
      </section>
      <section class="panel" aria-labelledby="tools-title">
        <h2 id="tools-title">{t('agents.agentForm.toolsAndApprovals')}</h2>
        {d.tools.length === 0 && <p class="hint">{t('agents.agentForm.noToolsTheAgentOnly')}</p>}
        {d.tools.map((t, i) => (
          <ToolFields
            key={t.key}
            tool={t}
            index={i}
            onChange={(nt) => setD((x) => ({ ...x, tools: x.tools.map((y) => (y.key === t.key ? nt : y)) }))}
            onRemove={() => setD((x) => ({ ...x, tools: x.tools.filter((y) => y.key !== t.key) }))}
          />
        ))}
        <button type="button" disabled={d.tools.length >= 20} onClick={() => setD((x) => ({ ...x, tools: [...x.tools, blankTool()] }))}>
          {t('agents.agentForm.addATool')}
        </button>
      </section>
      <section class="panel" aria-labelledby="limits-title">
        <h2 id="limits-title">{t('agents.agentForm.limitsAndModel')}</h2>
        <div class="grid-fields">
          <Field label={t('agents.agentForm.maxSteps')} hint={t('agents.agentForm.150Default10')}>
            {(id, hint) => <input id={id} aria-describedby={hint} type="number" value={d.maxSteps} onInput={set('maxSteps')} />}
          </Field>
          <Field label={t('agents.agentForm.runTimeoutSeconds')} hint={t('agents.agentForm.586400Default300')}>
            {(id, hint) => <input id={id} aria-describedby={hint} type="number" value={d.runTimeout} onInput={set('runTimeout')} />}
          </Field>
          <Field label={t('agents.agentForm.approvalTimeoutSeconds')} hint={t('agents.agentForm.60604800Default86')}>
            {(id, hint) => <input id={id} aria-describedby={hint} type="number" value={d.approvalTimeout} onInput={set('approvalTimeout')} />}
          </Field>
          <Field label={t('agents.agentForm.aiProvider')}>
            {(id) => (
              <select id={id} value={d.provider} onChange={set('provider')}>
                <option value="">{t('agents.agentForm.theServerSDefault')}</option>
                <option value="builtin">{t('agents.agentForm.builtIn')}</option>
                <option value="openai">{t('agents.agentForm.openaiCompatible')}</option>
              </select>
            )}
          </Field>
          <Field label={t('agents.agentForm.temperature')} hint={t('agents.agentForm.emptyTheProviderSDefault')}>
            {(id, hint) => <input id={id} aria-describedby={hint} type="number" step="any" value={d.temperature} onInput={set('temperature')} />}
          </Field>
        </div>
        <fieldset>
          <legend>{t('agents.agentForm.knowledgeBasesItSearchesAnd')}</legend>
          {bases.error && <ProblemView problem={bases.error} onRetry={bases.reload} />}
          {baseList.length === 0 && unknownBases.length === 0 && !bases.loading && <p class="hint">{t('agents.agentForm.noKnowledgeBasesInThis')}</p>}
          <div class="checks">
            {[...baseList.map((b) => ({ id: b.id, name: b.name })), ...unknownBases.map((id) => ({ id, name: id }))].map((b) => (
              <label>
                <input
                  type="checkbox"
                  checked={d.bases.includes(b.id)}
                  onChange={(e) => setD((x) => ({ ...x, bases: e.currentTarget.checked ? [...x.bases, b.id] : x.bases.filter((y) => y !== b.id) }))}
                />{' '}
                {b.name}
              </label>
            ))}
          </div>
        </fieldset>
        <Field label={t('agents.agentForm.inputSchemaJsonSchema')} hint={t('agents.agentForm.optionalRunsMustThenSend')}>
          {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={d.inputSchema} onInput={set('inputSchema')} />}
        </Field>
        <Field label={t('agents.agentForm.metadataJson')} hint={t('agents.agentForm.upTo50StringPairs')}>
          {(id, hint) => <textarea id={id} aria-describedby={hint} class="code" spellcheck={false} value={d.metadata} onInput={set('metadata')} />}
        </Field>
      </section>
      <LocalErrors errors={local} />
      <FormActions action={save} label={agent ? t('agents.agentForm.saveChanges') : t('agents.agentForm.createAgent')} busyLabel={t('agents.agentForm.saving')} />
    </form>
  )
}
