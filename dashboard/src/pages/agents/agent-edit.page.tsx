import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Dialog, Notice, Page, SecretOnce } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { AgentForm } from './agent-form.js'
import { AgentNav } from './common.js'
import { t } from '../../i18n/index.js'

type Created = components['schemas']['CreatedAgent']

/** /dashboard/agents/new: a new agent; its signing secret is shown once, then dropped when the dialog closes. */
export function NewAgent() {
  const { route } = useLocation()
  const [created, setCreated] = useState<Created>()
  return (
    <Page title={t('agents.agentEdit.newAgent')}>
      <p>
        <a href="/dashboard/agents">{t('agents.agentEdit.allAgents')}</a>
      </p>
      <AgentForm onSaved={(a) => setCreated(a as Created)} />
      <Dialog open={!!created} title={t('agents.agentEdit.agentCreated')} onClose={() => created && route(`/dashboard/agents/${created.id}`)}>
        {created && (
          <>
            <p>
              <strong>{created.name}</strong> {t('agents.agentEdit.wasCreatedItsHttpTool')}
            </p>
            <SecretOnce label={t('agents.agentEdit.signingSecret')} value={created.signing_secret} />
            <div class="form-actions">
              <a class="button primary" href={`/dashboard/agents/${created.id}`}>
                {t('agents.agentEdit.goToTheAgent')}
              </a>
            </div>
          </>
        )}
      </Dialog>
    </Page>
  )
}

/** /dashboard/agents/:id/edit: every setting of an agent (PATCH; tools replace the list, stored header values are kept). */
export function EditAgent() {
  const { id } = useRoute().params as { id: string }
  const agent = useResource((a) => ok(a.client.GET('/agents/{id}', { params: { path: { id } } })), [id])
  const [saved, setSaved] = useState(0)
  return (
    <Page title={agent.data ? t('agents.agentEdit.settingsName', { name: agent.data.name }) : t('agents.agentEdit.agentSettings')}>
      <AgentNav id={id} />
      {saved > 0 && <Notice>{t('agents.agentEdit.savedRunsAlreadyCreatedKeep')}</Notice>}
      <Async loading={agent.loading} error={agent.error} data={agent.data} onRetry={agent.reload}>
        {(a) => (
          <AgentForm
            key={`${a.id}:${a.updated_at}`}
            agent={a}
            onSaved={(next) => {
              agent.set(next)
              setSaved((n) => n + 1)
            }}
          />
        )}
      </Async>
    </Page>
  )
}
