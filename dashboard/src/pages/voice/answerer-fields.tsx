import { ok } from '../../api/client.js'
import { Field } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { t } from '../../i18n/index.js'

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
  const noun = answerer === 'bot' ? t('voice.answererFields.publishedBots') : t('voice.answererFields.activeAgents')
  return (
    <>
      <Field label={t('voice.answererFields.answeredBy')}>
        {(id) => (
          <select id={id} value={answerer} onChange={(e) => onChange((e.target as HTMLSelectElement).value as Answerer, '')}>
            <option value="greeting">{t('voice.answererFields.theGreetingOnly')}</option>
            <option value="bot">{t('voice.answererFields.aBotItsPublishedVersion')}</option>
            <option value="agent">{t('voice.answererFields.anAgent')}</option>
          </select>
        )}
      </Field>
      {answerer !== 'greeting' && (
        <Field
          label={answerer === 'bot' ? t('voice.answererFields.bot') : t('voice.answererFields.agent')}
          hint={
            answerers.error
              ? t('voice.answererFields.couldNotListThemDetail', { detail: answerers.error.detail })
              : answerers.loading
                ? t('voice.answererFields.loading')
                : options.length === 0
                  ? t('voice.answererFields.noNounYet', { noun })
                  : undefined
          }
        >
          {(id, hint) => (
            <select id={id} required aria-describedby={hint} value={answererId} onChange={(e) => onChange(answerer, (e.target as HTMLSelectElement).value)}>
              <option value="">{t('voice.answererFields.choose')}</option>
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
