import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Notice, Page } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { CrmForm, VoiceForm } from './integration-forms.js'
import { t } from '../../i18n/index.js'

export type Ws = components['schemas']['Workspace']
export type Body = components['requestBodies']['UpdateWorkspaceBody']['content']['application/json']

/**
 * /dashboard/settings/integrations: this mode's CRM (where leads sync) and voice carrier. Their secrets are
 * write-only: the API says whether one is stored, never what it is.
 */
export default function Integrations() {
  const { api, membership } = useWorkspace()
  const readOnly = membership.role === 'member'
  const ws = useResource((a) => ok(a.client.GET('/workspaces/current')))
  const patch = async (w: Ws, body: Body) => {
    const next = await ok(api.client.PATCH('/workspaces/{id}', { params: { path: { id: w.id } }, body }))
    ws.set(next)
    return next
  }
  return (
    <Page title={t('settings.index.integrations')}>
      {readOnly && <Notice tone="neutral">{t('settings.integrations.onlyOwnersAndAdminsChange')}</Notice>}
      <Async loading={ws.loading} error={ws.error} data={ws.data} onRetry={ws.reload}>
        {(w) => (
          <fieldset class="bare-fieldset" disabled={readOnly}>
            <CrmForm ws={w} patch={patch} />
            <VoiceForm ws={w} patch={patch} />
          </fieldset>
        )}
      </Async>
    </Page>
  )
}
