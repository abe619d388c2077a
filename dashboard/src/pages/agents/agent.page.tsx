import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Empty, Field, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { AgentRun, LocalError, RunStatus, RunSummary } from './common.js'
import { AgentNav, LocalErrors, StatusBadge, isActive, parseJson } from './common.js'

const STATUSES: RunStatus[] = ['queued', 'running', 'requires_approval', 'succeeded', 'failed', 'cancelled', 'expired']
const inputText = (r: RunSummary) => r.input.text ?? JSON.stringify(r.input.json)

/** /dashboard/agents/:id: an agent, its runs (newest first), and a form to start one. */
export default function AgentPage() {
  const { id } = useRoute().params as { id: string }
  const { api } = useWorkspace()
  const agent = useResource((a) => ok(a.client.GET('/agents/{id}', { params: { path: { id } } })), [id])
  const [status, setStatus] = useState<RunStatus | ''>('')
  const runs = usePaged<RunSummary>((a, cursor) => ok(a.client.GET('/agents/{id}/runs', { params: { path: { id }, query: { cursor, ...(status ? { status } : {}) } } })), [id, status])
  const [input, setInput] = useState('')
  const [asJson, setAsJson] = useState(false)
  const [local, setLocal] = useState<LocalError[]>([])
  const [started, setStarted] = useState<AgentRun>()
  const start = useAction(async () => {
    const errors: LocalError[] = []
    const value = asJson ? parseJson(input, '/input', errors) : input
    if (asJson && !errors.length && (typeof value !== 'object' || value === null || Array.isArray(value))) errors.push({ pointer: '/input', detail: 'must be a JSON object' })
    setLocal(errors)
    if (errors.length) return
    const body = { input: value as string | Record<string, unknown> }
    const run = await ok(api.client.POST('/agents/{id}/runs', { params: { path: { id } }, body }))
    setStarted(run)
    setInput('')
    runs.setItems((xs) => [run, ...xs])
  })
  // Runs still queued or running: refresh the list until they settle.
  usePoll(runs.items.some((r) => isActive(r.status)), runs.reload, 2000)
  return (
    <Page title={agent.data?.name ?? 'Agent'}>
      <AgentNav id={id} />
      <Async loading={agent.loading} error={agent.error} data={agent.data} onRetry={agent.reload}>
        {(a) => (
          <section class="panel wrap-any" aria-label="About this agent">
            {a.description && <p>{a.description}</p>}
            <dl class="facts">
              <dt>Status</dt>
              <dd>
                <StatusBadge status={a.status} />
              </dd>
              <dt>Tools</dt>
              <dd>{a.tools.map((t) => `${t.name} (approval: ${t.approval.mode === 'when' ? `when ${t.approval.when?.argument} ${t.approval.when?.operator} ${JSON.stringify(t.approval.when?.value ?? '')}` : t.approval.mode})`).join('; ') || '—'}</dd>
              <dt>Limits</dt>
              <dd>
                {a.max_steps} steps, {a.run_timeout_seconds} s per run, approvals expire after {a.approval_timeout_seconds} s
              </dd>
            </dl>
          </section>
        )}
      </Async>
      <section class="panel" aria-labelledby="start-run">
        <h2 id="start-run">Start a run</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void start.run()
          }}
        >
          <Field label="Input" hint={asJson ? 'A JSON object (an agent with an input schema takes only these).' : 'What the agent should do, as text.'}>
            {(fid, hint) => <textarea id={fid} aria-describedby={hint} class={asJson ? 'code' : undefined} required value={input} onInput={(e) => setInput(e.currentTarget.value)} />}
          </Field>
          <label class="check">
            <input type="checkbox" checked={asJson} onChange={(e) => setAsJson(e.currentTarget.checked)} /> Send the input as JSON
          </label>
          <LocalErrors errors={local} />
          {start.error && <ProblemView problem={start.error} />}
          {started && (
            <Notice>
              Run <a href={`/dashboard/agents/${id}/runs/${started.id}`}>{started.id}</a> queued.
            </Notice>
          )}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={start.pending || !input.trim()}>
              {start.pending ? 'Starting…' : 'Start run'}
            </button>
          </div>
        </form>
      </section>
      <h2>Runs</h2>
      <div class="filters">
        <div class="field">
          <label for="run-status">Status</label>
          <select id="run-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as RunStatus | '')}>
            <option value="">All</option>
            {STATUSES.map((s) => (
              <option value={s}>{s.replace('_', ' ')}</option>
            ))}
          </select>
        </div>
      </div>
      <PagedList list={runs} emptyView={<Empty title="No runs" />}>
        {(rows) => (
          <Table
            caption="Runs"
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              { label: 'Run', render: (r) => <a href={`/dashboard/agents/${id}/runs/${r.id}`}>{r.id}</a> },
              { label: 'Status', render: (r) => <StatusBadge status={r.status} /> },
              { label: 'Input', render: (r) => inputText(r).slice(0, 120) },
              { label: 'Steps', class: 'num', render: (r) => r.usage.steps },
              { label: 'Created', render: (r) => <Time iso={r.created_at} /> },
              { label: 'Finished', render: (r) => <Time iso={r.finished_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
