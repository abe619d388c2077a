import { useLocation, useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Dialog, Notice, Page, SecretOnce } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { AgentForm } from './agent-form.js'
import { AgentNav } from './common.js'

type Created = components['schemas']['CreatedAgent']

/** /dashboard/agents/new: a new agent; its signing secret is shown once, then dropped when the dialog closes. */
export function NewAgent() {
  const { route } = useLocation()
  const [created, setCreated] = useState<Created>()
  return (
    <Page title="New agent">
      <p>
        <a href="/dashboard/agents">← All agents</a>
      </p>
      <AgentForm onSaved={(a) => setCreated(a as Created)} />
      <Dialog open={!!created} title="Agent created" onClose={() => created && route(`/dashboard/agents/${created.id}`)}>
        {created && (
          <>
            <p>
              <strong>{created.name}</strong> was created. Its HTTP tool calls are signed with this secret: verify them with it.
            </p>
            <SecretOnce label="Signing secret" value={created.signing_secret} />
            <div class="form-actions">
              <a class="button primary" href={`/dashboard/agents/${created.id}`}>
                Go to the agent
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
    <Page title={agent.data ? `Settings · ${agent.data.name}` : 'Agent settings'}>
      <AgentNav id={id} />
      {saved > 0 && <Notice>Saved. Runs already created keep the agent as it was.</Notice>}
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
