import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Field, FormActions, Notice, Page, PagedList, ProblemView, SecretOnce, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { components } from '../../api/schema.js'
import { t } from '../../i18n/index.js'

type ApiKey = components['schemas']['ApiKey']
const BROAD = ['read', 'write', 'admin'] as const
const GRANULAR = ['conversations', 'messages', 'bots', 'leads', 'webhooks'].flatMap((r) => [`${r}:read`, `${r}:write`])

/**
 * Developers → API keys: this workspace's keys in the current mode. A new key is shown once, in the
 * dialog that made it (with a copy button); closing the dialog drops it from memory.
 */
export default function KeysPage() {
  const { membership, api } = useWorkspace()
  const keys = usePaged((api, cursor) => ok(api.client.GET('/api-keys', { params: { query: { cursor, limit: 50 } } })))
  const [creating, setCreating] = useState(false)
  const [notice, setNotice] = useState<string>()
  const revoke = useAction(async (key: ApiKey) => {
    const updated = await ok(api.client.POST('/api-keys/{id}/revoke', { params: { path: { id: key.id } } }))
    keys.setItems((xs) => xs.map((k) => (k.id === updated.id ? updated : k)))
    setNotice(t('developers.keysPage.revokedValue', { value: key.name ?? key.prefix }))
  })
  return (
    <Page
      title={t('developers.index.apiKeys')}
      actions={
        <button type="button" class="primary" onClick={() => (setNotice(undefined), setCreating(true))}>
          {t('developers.keysPage.createKey')}
        </button>
      }
    >
      <p class="hint">
        {membership.mode === 'test' ? t('developers.keysPage.testKeysSvcTestWork') : t('developers.keysPage.liveKeysSvcLiveWork')} {t('developers.keysPage.keysAreStoredOnlyAs')}
      </p>
      {notice && <Notice>{notice}</Notice>}
      {revoke.error && <ProblemView problem={revoke.error} />}
      <PagedList list={keys} emptyView={<Empty title={t('developers.keysPage.noKeysInThisMode')}>{t('developers.keysPage.createOneToCallThe')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('developers.index.apiKeys')}
            rowKey={(k) => k.id}
            rows={rows}
            columns={[
              { label: t('developers.keysPage.name'), render: (k) => k.name ?? <span class="hint">{t('developers.keysPage.unnamed')}</span> },
              { label: t('developers.keysPage.key'), render: (k) => <code class="nowrap">{k.prefix}…</code> },
              { label: t('developers.keysPage.scopes'), render: (k) => k.scopes.join(' ') },
              { label: t('developers.keysPage.lastUsed'), render: (k) => (k.last_used_at ? <Time iso={k.last_used_at} /> : 'never') },
              { label: t('developers.deliveriesDetail.created'), render: (k) => <Time iso={k.created_at} /> },
              {
                label: t('developers.deliveriesDetail.status'),
                render: (k) =>
                  k.status === 'active' ? (
                    <button
                      type="button"
                      class="danger"
                      disabled={revoke.pending}
                      onClick={() => confirm(t('developers.keysPage.revokeValueRequestsWithIt', { value: k.name ?? k.prefix })) && revoke.run(k)}
                    >
                      {t('developers.keysPage.revoke')}
                      <span class="visually-hidden"> {k.name ?? k.prefix}</span>
                    </button>
                  ) : (
                    <Badge tone="bad">{t('developers.keysPage.revoked')}</Badge>
                  ),
              },
            ]}
          />
        )}
      </PagedList>
      <CreateKeyDialog
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(k) => {
          keys.setItems((xs) => [k, ...xs])
        }}
      />
    </Page>
  )
}

function CreateKeyDialog({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (k: ApiKey) => void }) {
  const { api } = useWorkspace()
  const [name, setName] = useState('')
  const [scopes, setScopes] = useState<string[]>(['read'])
  // The secret lives only here, until the dialog closes.
  const [secret, setSecret] = useState<string | null>(null)
  const create = useAction(async () => {
    const made = await ok(api.client.POST('/api-keys', { body: { name: name.trim() || undefined, scopes: scopes as never } }))
    const { key, ...shown } = made
    setSecret(key)
    onCreated(shown)
  })
  const close = () => {
    setSecret(null)
    setName('')
    setScopes(['read'])
    create.clear()
    onClose()
  }
  const toggle = (s: string) => setScopes((xs) => (xs.includes(s) ? xs.filter((x) => x !== s) : [...xs, s]))
  return (
    <Dialog open={open} title={secret ? t('developers.keysPage.yourNewApiKey') : t('developers.keysPage.createAnApiKey')} onClose={close}>
      {secret ? (
        <SecretOnce label={t('developers.keysPage.apiKey')} value={secret} onDone={close} />
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void create.run()
          }}
        >
          <Field label={t('developers.keysPage.name')} hint={t('developers.keysPage.whatTheKeyIsFor')}>
            {(id, d) => <input id={id} aria-describedby={d} value={name} maxLength={100} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}
          </Field>
          <fieldset>
            <legend>{t('developers.keysPage.scopes')}</legend>
            <div class="checks">
              {[...BROAD, ...GRANULAR].map((s) => (
                <label>
                  <input type="checkbox" checked={scopes.includes(s)} onChange={() => toggle(s)} /> {s}
                </label>
              ))}
            </div>
          </fieldset>
          <FormActions action={create} label={t('developers.keysPage.createKey')} busyLabel={t('developers.keysPage.creating')} disabled={scopes.length === 0} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
