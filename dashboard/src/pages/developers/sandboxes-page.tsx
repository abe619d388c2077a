import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Dialog, Empty, Field, FormActions, Notice, Page, PagedList, SecretOnce, Table, Time, type Tone } from '../../ui/components.js'
import { useAction, usePaged, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import './tools.css'
import { type MessageKey, statusLabel, t } from '../../i18n/index.js'

type Sandbox = components['schemas']['SandboxWorkspace']
type Created = components['schemas']['CreatedSandboxWorkspace']

const TONE: Record<Sandbox['status'], Tone> = { seeding: 'info', ready: 'good', failed: 'bad' }
const SEEDED: [keyof Sandbox['seeded'], MessageKey][] = [
  ['conversations', 'developers.sandboxes.conversations'],
  ['messages', 'developers.sandboxes.messages'],
  ['tags', 'developers.sandboxes.tags'],
  ['knowledge_bases', 'developers.sandboxes.knowledgeBases'],
  ['knowledge_documents', 'developers.sandboxes.documents'],
  ['bots', 'developers.sandboxes.bots'],
  ['agents', 'developers.sandboxes.agents'],
  ['leads', 'developers.sandboxes.leads'],
  ['webhook_endpoints', 'developers.sandboxes.webhookEndpoints'],
]

function Seeded({ s }: { s: Sandbox['seeded'] }) {
  const parts = SEEDED.filter(([k]) => s[k] > 0).map(([k, key]) => t(key, { count: s[k] }))
  return <span>{parts.length ? parts.join(' · ') : t('developers.sandboxesPage.nothingYet')}</span>
}

/**
 * /dashboard/developers/sandboxes: workspaces made for testing, seeded with sample data. Each has only a
 * test key, shown once when it is made; the list shows its prefix.
 */
export function SandboxesPage() {
  const { membership, api } = useWorkspace()
  const live = membership.mode === 'live'
  const list = usePaged((a, cursor) => ok(a.client.GET('/sandbox-workspaces', { params: { query: { cursor, limit: 20 } } })))
  const [creating, setCreating] = useState(false)
  // Seeding takes about a second: follow it on the sandboxes already shown.
  const seeding = list.items.some((s) => s.status === 'seeding')
  usePoll(seeding, async () => {
    const fresh = await ok(api.client.GET('/sandbox-workspaces', { params: { query: { limit: 100 } } }))
    const byId = new Map(fresh.data.map((s) => [s.id, s]))
    list.setItems((xs) => xs.map((x) => byId.get(x.id) ?? x))
  })
  return (
    <Page
      title={t('developers.sandboxesPage.sandboxWorkspaces')}
      actions={
        <button type="button" class="primary" disabled={!live} onClick={() => setCreating(true)}>
          {t('developers.sandboxesPage.createASandbox')}
        </button>
      }
    >
      <p class="hint">
        {t('developers.sandboxesPage.aSandboxIsASeparate')}
        {!live && t('developers.sandboxesPage.sandboxesAreCreatedInLive')}
      </p>
      <PagedList list={list} emptyView={<Empty title={t('developers.sandboxesPage.noSandboxWorkspacesYet')}>{t('developers.sandboxesPage.createOneToTryThe')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('developers.sandboxesPage.sandboxWorkspacesNewestFirst')}
            rowKey={(s) => s.id}
            rows={rows}
            columns={[
              { label: t('developers.keysPage.name'), render: (s) => s.name },
              {
                label: t('developers.deliveriesDetail.status'),
                render: (s) => (
                  <>
                    <Badge tone={TONE[s.status]}>{statusLabel(s.status)}</Badge> {s.error && <span class="hint">{s.error}</span>}
                  </>
                ),
              },
              { label: t('developers.sandboxesPage.workspace'), render: (s) => <code>{s.workspace_id}</code> },
              { label: t('developers.sandboxesPage.testKey'), render: (s) => <code class="nowrap">{s.api_key.prefix}…</code> },
              { label: t('developers.sandboxesPage.sampleData'), render: (s) => <Seeded s={s.seeded} /> },
              { label: t('developers.deliveriesDetail.created'), render: (s) => <Time iso={s.created_at} /> },
            ]}
          />
        )}
      </PagedList>
      <CreateSandbox
        open={creating}
        onClose={() => setCreating(false)}
        onCreated={(c) => {
          const { test_key: _key, ...shown } = c
          list.setItems((xs) => [shown, ...xs.filter((x) => x.id !== c.id)])
        }}
      />
    </Page>
  )
}

function CreateSandbox({ open, onClose, onCreated }: { open: boolean; onClose: () => void; onCreated: (c: Created) => void }) {
  const { api } = useWorkspace()
  const [name, setName] = useState('')
  // The key lives only here, until the dialog closes.
  const [made, setMade] = useState<Created | null>(null)
  const create = useAction(async () => {
    const c = await ok(api.client.POST('/sandbox-workspaces', { body: name.trim() ? { name: name.trim() } : {} }))
    setMade(c)
    onCreated(c)
  })
  const close = () => {
    setMade(null)
    setName('')
    create.clear()
    onClose()
  }
  return (
    <Dialog open={open} title={made ? t('developers.sandboxesPage.sandboxCreated') : t('developers.sandboxesPage.createASandboxWorkspace')} onClose={close}>
      {made ? (
        <>
          <Notice>{t('developers.sandboxesPage.nameIsBeingSeededWith', { name: made.name })}</Notice>
          <SecretOnce label={t('developers.sandboxesPage.sandboxTestKey')} value={made.test_key} onDone={close}>
            <dl class="facts">
              <dt>{t('developers.sandboxesPage.baseUrl')}</dt>
              <dd>
                <code class="break-anywhere">{made.base_url}</code> <CopyButton text={made.base_url} label={t('developers.sandboxesPage.copyBaseUrl')} />
              </dd>
              <dt>{t('developers.sandboxesPage.workspace')}</dt>
              <dd>
                <code>{made.workspace_id}</code>
              </dd>
              <dt>{t('developers.keysPage.scopes')}</dt>
              <dd>{made.api_key.scopes.join(' ')}</dd>
              <dt>{t('developers.index.playground')}</dt>
              <dd>
                <code class="break-anywhere">{made.playground_url}</code> <CopyButton text={made.playground_url} label={t('developers.sandboxesPage.copyPlaygroundUrl')} />
              </dd>
            </dl>
          </SecretOnce>
        </>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void create.run()
          }}
        >
          <Field label={t('developers.keysPage.name')} hint={t('developers.sandboxesPage.optionalDefaultSandboxOfThis')}>
            {(id, d) => <input id={id} aria-describedby={d} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <FormActions action={create} label={t('developers.sandboxesPage.createSandbox')} busyLabel={t('developers.keysPage.creating')} onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
