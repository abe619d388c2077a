import type { components } from '../../api/schema.js'
import { Time } from '../../ui/components.js'
import { json, StatusBadge } from './common.js'
import { t } from '../../i18n/index.js'

type Step = components['schemas']['AgentRunStep']

const label = (): Record<string, string> => ({
  reasoning: t('agents.timeline.reasoning'),
  approval: t('agents.timeline.approval'),
  tool_call: t('agents.timeline.toolCall'),
  tool_result: t('agents.timeline.toolResult'),
  message: t('agents.timeline.message'),
  error: t('agents.timeline.error'),
})

/** A run's steps in order: what the engine decided, each approval, call and result, the output or the error. */
export function StepTimeline({ steps }: { steps: Step[] }) {
  const ordered = [...steps].sort((a, b) => a.position - b.position)
  return (
    <ol class="timeline plain-list" aria-label={t('agents.agent.steps')}>
      {ordered.map((s) => (
        <li class="panel" key={s.id} data-step-type={s.type}>
          <h3>
            {s.position}. {label()[s.type] ?? s.type}
            {s.tool && (
              <>
                {' '}
                <code>{s.tool}</code>
              </>
            )}{' '}
            <StatusBadge status={s.status} />
          </h3>
          <p class="hint">
            {t('agents.timeline.started')} <Time iso={s.started_at} />
            {s.completed_at && (
              <>
                {' '}
                {t('agents.timeline.ended')} <Time iso={s.completed_at} />
              </>
            )}
            {s.approval_id && (
              <>
                {' '}
                {t('agents.timeline.approval')} <code>{s.approval_id}</code>
              </>
            )}
            {s.idempotency_key && (
              <>
                {' '}
                {t('agents.timeline.idempotencyKey')} <code>{s.idempotency_key}</code>
              </>
            )}
          </p>
          {s.text && <p>{s.text}</p>}
          {s.arguments && (
            <details open={s.type !== 'reasoning'}>
              <summary>{s.type === 'reasoning' ? t('agents.timeline.callsAskedFor') : t('agents.agent.input')}</summary>
              <pre>
                <code>{json(s.arguments)}</code>
              </pre>
            </details>
          )}
          {s.result && (
            <details open>
              <summary>{t('agents.run.output')}</summary>
              <pre>
                <code>{json(s.result)}</code>
              </pre>
            </details>
          )}
        </li>
      ))}
    </ol>
  )
}
