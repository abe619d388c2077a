import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Notice, Page, Time } from '../../ui/components.js'
import { useResource, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { AgentRun } from './common.js'
import { AgentNav, DecisionForm, StatusBadge, isActive, json } from './common.js'
import { StepTimeline } from './timeline.js'

/** /dashboard/agents/:id/runs/:runId: a run, its step timeline, its pending approval, output and postmortem. */
export default function RunPage() {
  const { id, runId } = useRoute().params as { id: string; runId: string }
  const { api } = useWorkspace()
  const load = () => ok(api.client.GET('/agents/{id}/runs/{run_id}', { params: { path: { id, run_id: runId } } }))
  const run = useResource(() => load(), [id, runId])
  const [decided, setDecided] = useState<string>()
  // Queued or running: follow it until it settles (or stops for a person).
  usePoll(!!run.data && isActive(run.data.status), async () => run.set(await load()), 1000)
  return (
    <Page title="Agent run">
      <AgentNav id={id} />
      <p>
        <a href={`/dashboard/agents/${id}`}>← Runs of this agent</a>
      </p>
      <Async loading={run.loading} error={run.error} data={run.data} onRetry={run.reload}>
        {(r: AgentRun) => (
          <>
            <section class="panel" aria-label="Run">
              <dl class="facts wrap-any">
                <dt>Run</dt>
                <dd>
                  <code>{r.id}</code>
                </dd>
                <dt>Status</dt>
                <dd>
                  <span aria-live="polite" data-testid="run-status">
                    <StatusBadge status={r.status} />
                  </span>
                </dd>
                <dt>Input</dt>
                <dd>{r.input.text ?? <code>{json(r.input.json)}</code>}</dd>
                <dt>Created</dt>
                <dd>
                  <Time iso={r.created_at} />
                </dd>
                <dt>Finished</dt>
                <dd>
                  <Time iso={r.finished_at} />
                </dd>
                <dt>Usage</dt>
                <dd>
                  {r.usage.steps} steps, {r.usage.tool_calls} tool calls{r.usage.tokens ? `, ${r.usage.tokens.prompt + r.usage.tokens.completion} tokens` : ''}
                </dd>
              </dl>
            </section>
            {decided && <Notice>{decided}</Notice>}
            {r.status === 'requires_approval' && r.pending_approval && (
              <section class="panel" aria-labelledby="pending-title">
                <h2 id="pending-title">Waiting for your approval</h2>
                <p>
                  <code>{r.pending_approval.tool}</code>: {r.pending_approval.reason}. Expires <Time iso={r.pending_approval.expires_at} />.
                </p>
                <DecisionForm
                  agentId={id}
                  approval={r.pending_approval}
                  onDecided={(next, d) => {
                    setDecided(d === 'approve' ? 'Approved: the run continues.' : 'Rejected: the call is not made; the run continues without it.')
                    run.set(next)
                  }}
                />
              </section>
            )}
            {r.output && (
              <section class="panel" aria-labelledby="output-title">
                <h2 id="output-title">Output</h2>
                <p>{r.output.text}</p>
                {r.output.citations.length > 0 && (
                  <ol>
                    {r.output.citations.map((c) => (
                      <li>
                        {c.citation.source_url ? <a href={c.citation.source_url}>{c.citation.title}</a> : c.citation.title} (score {c.score.toFixed(2)})
                      </li>
                    ))}
                  </ol>
                )}
              </section>
            )}
            {r.error && (
              <Notice tone="bad">
                {r.error.code}: {r.error.detail}
              </Notice>
            )}
            {r.postmortem && (
              <section class="panel" aria-labelledby="pm-title">
                <h2 id="pm-title">Postmortem</h2>
                <p>
                  {r.postmortem.reason}: {r.postmortem.detail} (step {r.postmortem.failed_step ?? '—'}, {r.postmortem.duration_ms} ms)
                </p>
              </section>
            )}
            <h2>Timeline</h2>
            <StepTimeline steps={r.steps} />
          </>
        )}
      </Async>
    </Page>
  )
}
