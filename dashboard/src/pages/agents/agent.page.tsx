import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Empty, Field, Notice, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged, useResource, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { AgentRun, LocalError, RunStatus, RunSummary } from './common.js'
import { AgentNav, LocalErrors, StatusBadge, isActive, parseJson } from './common.js'
import { t, tx } from '../../i18n/index.js'

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
    if (asJson && !errors.length && (typeof value !== 'object' || value === null || Array.isArray(value))) errors.push({ pointer: '/input', detail: t('agents.agent.mustBeAJsonObject') })
    setLocal(errors)
    if (errors.length) return
    const body = { input: value as string | Record<string, unknown> }
    const run = await ok(api.client.POST('/agents/{id}/runs', { params: { path: { id } }, body }))
    setStarted(run)
    setInput('')
    runs.setItems((xs) => [run, ...xs])
  })
  // Runs still queued or running: refresh the list until they settle.
  usePoll(
    runs.items.some((r) => isActive(r.status)),
    runs.reload,
    2000,
  )
  return (
    <Page title={agent.data?.name ?? t('agents.agent.agent')}>
      <AgentNav id={id} />
      <Async loading={agent.loading} error={agent.error} data={agent.data} onRetry={agent.reload}>
        {(a) => (
          <section class="panel wrap-any" aria-label={t('agents.agent.aboutThisAgent')}>
            {a.description && <p>{a.description}</p>}
            <dl class="facts">
              <dt>{t('agents.agentForm.status')}</dt>
              <dd>
                <StatusBadge status={a.status} />
              </dd>
              <dt>{t('agents.agent.tools')}</dt>
              <dd>
                {a.tools
                  .map(
                    (t) =>
                      `${t.name} (approval: ${t.approval.mode === 'when' ? `when ${t.approval.when?.argument} ${t.approval.when?.operator} ${JSON.stringify(t.approval.when?.value ?? '')}` : t.approval.mode})`,
                  )
                  .join('; ') || '—'}
              </dd>
              <dt>{t('agents.agent.limits')}</dt>
              <dd>{t('agents.agent.maxstepsStepsRuntimeoutsecondsSPer', { maxSteps: a.max_steps, runTimeoutSeconds: a.run_timeout_seconds, approvalTimeoutSeconds: a.approval_timeout_seconds })}</dd>
            </dl>
          </section>
        )}
      </Async>
      <section class="panel" aria-labelledby="start-run">
        <h2 id="start-run">{t('agents.agent.startARun')}</h2>
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void start.run()
          }}
        >
          <Field label={t('agents.agent.input')} hint={asJson ? t('agents.agent.aJsonObjectAnAgent') : t('agents.agent.whatTheAgentShouldDo')}>
            {(fid, hint) => <textarea id={fid} aria-describedby={hint} class={asJson ? 'code' : undefined} required value={input} onInput={(e) => setInput(e.currentTarget.value)} />}
          </Field>
          <label class="check">
            <input type="checkbox" checked={asJson} onChange={(e) => setAsJson(e.currentTarget.checked)} /> {t('agents.agent.sendTheInputAsJson')}
          </label>
          <LocalErrors errors={local} />
          {start.error && <ProblemView problem={start.error} />}
          {started && <Notice>{tx('agents.agent.runQueued', { run: <a href={`/dashboard/agents/${id}/runs/${started.id}`}>{started.id}</a> })}</Notice>}
          <div class="form-actions">
            <button type="submit" class="primary" disabled={start.pending || !input.trim()}>
              {start.pending ? t('agents.agent.starting') : t('agents.agent.startRun')}
            </button>
          </div>
        </form>
      </section>
      <h2>{t('agents.agent.runs')}</h2>
      <div class="filters">
        <div class="field">
          <label for="run-status">{t('agents.agentForm.status')}</label>
          <select id="run-status" value={status} onChange={(e) => setStatus(e.currentTarget.value as RunStatus | '')}>
            <option value="">{t('agents.agent.all')}</option>
            {STATUSES.map((s) => (
              <option value={s}>{s.replace('_', ' ')}</option>
            ))}
          </select>
        </div>
      </div>
      <PagedList list={runs} emptyView={<Empty title={t('agents.agent.noRuns')} />}>
        {(rows) => (
          <Table
            caption={t('agents.agent.runs')}
            rows={rows}
            rowKey={(r) => r.id}
            columns={[
              { label: t('agents.agent.run'), render: (r) => <a href={`/dashboard/agents/${id}/runs/${r.id}`}>{r.id}</a> },
              { label: t('agents.agentForm.status'), render: (r) => <StatusBadge status={r.status} /> },
              { label: t('agents.agent.input'), render: (r) => inputText(r).slice(0, 120) },
              { label: t('agents.agent.steps'), class: 'num', render: (r) => r.usage.steps },
              { label: t('agents.agent.created'), render: (r) => <Time iso={r.created_at} /> },
              { label: t('agents.agent.finished'), render: (r) => <Time iso={r.finished_at} /> },
            ]}
          />
        )}
      </PagedList>
    </Page>
  )
}
