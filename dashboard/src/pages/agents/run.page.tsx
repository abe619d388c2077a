import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Notice, Page, Time } from '../../ui/components.js'
import { useResource, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { AgentRun } from './common.js'
import { AgentNav, DecisionForm, StatusBadge, isActive, json } from './common.js'
import { StepTimeline } from './timeline.js'
import { t } from '../../i18n/index.js'

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
    <Page title={t('agents.run.agentRun')}>
      <AgentNav id={id} />
      <p>
        <a href={`/dashboard/agents/${id}`}>{t('agents.run.runsOfThisAgent')}</a>
      </p>
      <Async loading={run.loading} error={run.error} data={run.data} onRetry={run.reload}>
        {(r: AgentRun) => (
          <>
            <section class="panel" aria-label={t('agents.agent.run')}>
              <dl class="facts wrap-any">
                <dt>{t('agents.agent.run')}</dt>
                <dd>
                  <code>{r.id}</code>
                </dd>
                <dt>{t('agents.agentForm.status')}</dt>
                <dd>
                  <span aria-live="polite" data-testid="run-status">
                    <StatusBadge status={r.status} />
                  </span>
                </dd>
                <dt>{t('agents.agent.input')}</dt>
                <dd>{r.input.text ?? <code>{json(r.input.json)}</code>}</dd>
                <dt>{t('agents.agent.created')}</dt>
                <dd>
                  <Time iso={r.created_at} />
                </dd>
                <dt>{t('agents.agent.finished')}</dt>
                <dd>
                  <Time iso={r.finished_at} />
                </dd>
                <dt>{t('agents.run.usage')}</dt>
                <dd>
                  {t('agents.run.stepsStepsToolcallsToolCalls', { steps: r.usage.steps, toolCalls: r.usage.tool_calls })}
                  {r.usage.tokens ? t('agents.run.valueTokens', { value: r.usage.tokens.prompt + r.usage.tokens.completion }) : ''}
                </dd>
              </dl>
            </section>
            {decided && <Notice>{decided}</Notice>}
            {r.status === 'requires_approval' && r.pending_approval && (
              <section class="panel" aria-labelledby="pending-title">
                <h2 id="pending-title">{t('agents.run.waitingForYourApproval')}</h2>
                <p>
                  <code>{r.pending_approval.tool}</code>
                  {t('agents.run.reasonExpires', { reason: r.pending_approval.reason })} <Time iso={r.pending_approval.expires_at} />.
                </p>
                <DecisionForm
                  agentId={id}
                  approval={r.pending_approval}
                  onDecided={(next, d) => {
                    setDecided(d === 'approve' ? t('agents.run.approvedTheRunContinues') : t('agents.run.rejectedTheCallIsNot'))
                    run.set(next)
                  }}
                />
              </section>
            )}
            {r.output && (
              <section class="panel" aria-labelledby="output-title">
                <h2 id="output-title">{t('agents.run.output')}</h2>
                <p>{r.output.text}</p>
                {r.output.citations.length > 0 && (
                  <ol>
                    {r.output.citations.map((c) => (
                      <li>
                        {c.citation.source_url ? <a href={c.citation.source_url}>{c.citation.title}</a> : c.citation.title} {t('agents.run.score')} {c.score.toFixed(2)})
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
                <h2 id="pm-title">{t('agents.run.postmortem')}</h2>
                <p>
                  {t('agents.run.reasonDetailStep', { reason: r.postmortem.reason, detail: r.postmortem.detail })} {r.postmortem.failed_step ?? '—'}
                  {t('agents.run.durationmsMs', { durationMs: r.postmortem.duration_ms })}
                </p>
              </section>
            )}
            <h2>{t('agents.run.timeline')}</h2>
            <StepTimeline steps={r.steps} />
          </>
        )}
      </Async>
    </Page>
  )
}
