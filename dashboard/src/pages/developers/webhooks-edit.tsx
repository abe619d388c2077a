import { useEffect, useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Dialog, Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Endpoint } from './webhooks-shared.js'
import './tools.css'
import { t } from '../../i18n/index.js'

/** `key=value` lines ⇄ the endpoint's metadata (the API replaces the whole map on update). */
const metadataText = (m: Record<string, string>) =>
  Object.entries(m)
    .map(([k, v]) => `${k}=${v}`)
    .join('\n')
function parseMetadata(text: string): Record<string, string> {
  const out: Record<string, string> = {}
  for (const line of text.split('\n')) {
    if (!line.trim()) continue
    const at = line.indexOf('=')
    // A line without "=" is a key with an empty value: the API's 422 says if that is not allowed.
    if (at < 0) out[line.trim()] = ''
    else out[line.slice(0, at).trim()] = line.slice(at + 1).trim()
  }
  return out
}

/** Edits what updateWebhookEndpoint accepts (enabled has its own button on the page). */
export function EditEndpointDialog({ endpoint, open, onClose, onSaved }: { endpoint: Endpoint; open: boolean; onClose: () => void; onSaved: (e: Endpoint) => void }) {
  const { api } = useWorkspace()
  const [url, setUrl] = useState('')
  const [description, setDescription] = useState('')
  const [types, setTypes] = useState('')
  const [metadata, setMetadata] = useState('')
  const [legacy, setLegacy] = useState(false)
  useEffect(() => {
    if (!open) return
    setUrl(endpoint.url)
    setDescription(endpoint.description ?? '')
    setTypes(endpoint.event_types.join(', '))
    setMetadata(metadataText(endpoint.metadata))
    setLegacy(endpoint.legacy_signature)
  }, [open, endpoint])
  const save = useAction(async () => {
    const eventTypes = types.split(/[\s,]+/).filter(Boolean)
    const next = await ok(
      api.client.PATCH('/webhooks/endpoints/{id}', {
        params: { path: { id: endpoint.id } },
        body: {
          url: url.trim(),
          description: description.trim() || null,
          event_types: eventTypes.length ? eventTypes : ['*'],
          metadata: parseMetadata(metadata),
          legacy_signature: legacy,
        },
      }),
    )
    onSaved(next)
  })
  const close = () => {
    save.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={t('developers.webhooksEdit.editTheEndpoint')} onClose={close}>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save.run()
        }}
      >
        <Field label={t('developers.webhooksEdit.url')} hint="https:// in live mode (http:// also in the sandbox).">
          {(id, d) => <input id={id} aria-describedby={d} type="url" required value={url} onInput={(e) => setUrl(e.currentTarget.value)} />}
        </Field>
        <Field label={t('developers.terraformPage.description')} hint={t('developers.webhooksEdit.emptyRemovesIt')}>
          {(id, d) => <input id={id} aria-describedby={d} value={description} maxLength={500} onInput={(e) => setDescription(e.currentTarget.value)} />}
        </Field>
        <Field label={t('developers.webhooksDetail.eventTypes')} hint={t('developers.webhooksEdit.commaSeparatedCatalogTypesOr')}>
          {(id, d) => <input id={id} aria-describedby={d} value={types} onInput={(e) => setTypes(e.currentTarget.value)} />}
        </Field>
        <Field label={t('developers.webhooksDetail.metadata')} hint={t('developers.webhooksEdit.oneKeyValuePerLine')}>
          {(id, d) => <textarea id={id} aria-describedby={d} rows={3} value={metadata} onInput={(e) => setMetadata(e.currentTarget.value)} />}
        </Field>
        <div class="field">
          <label>
            <input type="checkbox" checked={legacy} onChange={(e) => setLegacy(e.currentTarget.checked)} /> {t('developers.webhooksEdit.alsoSendTheLegacyX')}
          </label>
        </div>
        <FormActions action={save} label={t('developers.webhooksEdit.saveChanges')} busyLabel={t('developers.oauthAppsForm.saving')} onCancel={close} />
      </form>
    </Dialog>
  )
}

/** Asks first: deleting stops every delivery to the URL and cannot be undone. */
export function DeleteEndpointDialog({ endpoint, open, onClose, onDeleted }: { endpoint: Endpoint; open: boolean; onClose: () => void; onDeleted: () => void }) {
  const { api } = useWorkspace()
  const remove = useAction(async () => {
    await ok(api.client.DELETE('/webhooks/endpoints/{id}', { params: { path: { id: endpoint.id } } }))
    onDeleted()
  })
  const close = () => {
    remove.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={t('developers.webhooksEdit.deleteThisEndpoint')} onClose={close}>
      <p>
        <code class="break-anywhere">{endpoint.url}</code> {t('developers.webhooksEdit.stopsReceivingEventsAtOnce')}
      </p>
      <FormActions
        action={remove}
        label={t('developers.webhooksDetail.deleteEndpoint')}
        busyLabel={t('developers.oauthAppsDetail.deleting')}
        tone="danger"
        onConfirm={() => void remove.run()}
        onCancel={close}
      />
    </Dialog>
  )
}
