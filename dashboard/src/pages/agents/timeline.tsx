import type { components } from '../../api/schema.js'
import { Time } from '../../ui/components.js'
import { json, StatusBadge } from './common.js'

type Step = components['schemas']['AgentRunStep']

const LABEL: Record<string, string> = {
  reasoning: 'Reasoning',
  approval: 'Approval',
  tool_call: 'Tool call',
  tool_result: 'Tool result',
  message: 'Message',
  error: 'Error',
}

/** A run's steps in order: what the engine decided, each approval, call and result, the output or the error. */
export function StepTimeline({ steps }: { steps: Step[] }) {
  const ordered = [...steps].sort((a, b) => a.position - b.position)
  return (
    <ol class="timeline plain-list" aria-label="Steps">
      {ordered.map((s) => (
        <li class="panel" key={s.id} data-step-type={s.type}>
          <h3>
            {s.position}. {LABEL[s.type] ?? s.type}
            {s.tool && (
              <>
                {' '}
                <code>{s.tool}</code>
              </>
            )}{' '}
            <StatusBadge status={s.status} />
          </h3>
          <p class="hint">
            Started <Time iso={s.started_at} />
            {s.completed_at && (
              <>
                {' '}
                · ended <Time iso={s.completed_at} />
              </>
            )}
            {s.approval_id && (
              <>
                {' '}
                · approval <code>{s.approval_id}</code>
              </>
            )}
            {s.idempotency_key && (
              <>
                {' '}
                · Idempotency-Key <code>{s.idempotency_key}</code>
              </>
            )}
          </p>
          {s.text && <p>{s.text}</p>}
          {s.arguments && (
            <details open={s.type !== 'reasoning'}>
              <summary>{s.type === 'reasoning' ? 'Calls asked for' : 'Input'}</summary>
              <pre>
                <code>{json(s.arguments)}</code>
              </pre>
            </details>
          )}
          {s.result && (
            <details open>
              <summary>Output</summary>
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
