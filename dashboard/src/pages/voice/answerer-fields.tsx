import { ok } from '../../api/client.js'
import { Field } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'

export type Answerer = 'greeting' | 'bot' | 'agent'

/** Who can answer: published bots and active agents (first page of each; enough for a choice list). */
function useAnswerers(kind: Answerer) {
  const bots = useResource((api) => (kind === 'bot' ? ok(api.client.GET('/bots', { params: { query: { status: 'published', limit: 100 } } })) : Promise.resolve(undefined)), [kind])
  const agents = useResource((api) => (kind === 'agent' ? ok(api.client.GET('/agents', { params: { query: { status: 'active', limit: 100 } } })) : Promise.resolve(undefined)), [kind])
  const r = kind === 'bot' ? bots : agents
  return { options: (r.data?.data ?? []).map((x) => ({ id: x.id, name: x.name })), loading: r.loading, error: r.error }
}

/**
 * "Answered by" (the greeting alone, a bot or an agent) and, for a bot or agent, which one. `keep` is the
 * id answering now: offered even when it is no longer in the list (unpublished, paused, past the first page),
 * so opening an edit form does not change the answerer by itself.
 */
export function AnswererFields({ answerer, answererId, keep, onChange }: { answerer: Answerer; answererId: string; keep?: string | null; onChange: (answerer: Answerer, id: string) => void }) {
  const answerers = useAnswerers(answerer)
  const options = keep && answerer !== 'greeting' && !answerers.options.some((o) => o.id === keep) ? [...answerers.options, { id: keep, name: keep }] : answerers.options
  const noun = answerer === 'bot' ? 'published bots' : 'active agents'
  return (
    <>
      <Field label="Answered by">
        {(id) => (
          <select id={id} value={answerer} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Answerer, '')}>
            <option value="greeting">The greeting only</option>
            <option value="bot">A bot (its published version)</option>
            <option value="agent">An agent</option>
          </select>
        )}
      </Field>
      {answerer !== 'greeting' && (
        <Field
          label={answerer === 'bot' ? 'Bot' : 'Agent'}
          hint={answerers.error ? `Could not list them: ${answerers.error.detail}` : answerers.loading ? 'Loading…' : options.length === 0 ? `No ${noun} yet.` : undefined}
        >
          {(id, hint) => (
            <select id={id} required aria-describedby={hint} value={answererId} onChange={(e) => onChange(answerer, (e.target as HTMLSelectElement).value)}>
              <option value="">Choose…</option>
              {options.map((o) => (
                <option value={o.id}>{o.name}</option>
              ))}
            </select>
          )}
        </Field>
      )}
    </>
  )
}
