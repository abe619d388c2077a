import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge, CopyButton, Dialog, Empty, Field, FormActions, Notice, Page, PagedList, SecretOnce, Table, Time, type Tone } from '../../ui/components.js'
import { useAction, usePaged, usePoll } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import './tools.css'

type Sandbox = components['schemas']['SandboxWorkspace']
type Created = components['schemas']['CreatedSandboxWorkspace']

const TONE: Record<Sandbox['status'], Tone> = { seeding: 'info', ready: 'good', failed: 'bad' }
const SEEDED: [keyof Sandbox['seeded'], string, string][] = [
  ['conversations', 'conversation', 'conversations'],
  ['messages', 'message', 'messages'],
  ['tags', 'tag', 'tags'],
  ['knowledge_bases', 'knowledge base', 'knowledge bases'],
  ['knowledge_documents', 'document', 'documents'],
  ['bots', 'bot', 'bots'],
  ['agents', 'agent', 'agents'],
  ['leads', 'lead', 'leads'],
  ['webhook_endpoints', 'webhook endpoint', 'webhook endpoints'],
]

function Seeded({ s }: { s: Sandbox['seeded'] }) {
  const parts = SEEDED.filter(([k]) => s[k] > 0).map(([k, one, many]) => `${s[k]} ${s[k] === 1 ? one : many}`)
  return <span>{parts.length ? parts.join(' · ') : 'nothing yet'}</span>
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
      title="Sandbox workspaces"
      actions={
        <button type="button" class="primary" disabled={!live} onClick={() => setCreating(true)}>
          Create a sandbox
        </button>
      }
    >
      <p class="hint">
        A sandbox is a separate workspace seeded with sample data (an outdoor-gear shop’s support desk: conversations, a knowledge base, a published bot, an agent, leads, a webhook
        endpoint delivering to the Playground). It is reached with its own test key on the sandbox base URL; it sees nothing of this workspace.
        {!live && ' Sandboxes are created in live mode: switch to live to create one.'}
      </p>
      <PagedList list={list} emptyView={<Empty title="No sandbox workspaces yet">Create one to try the API on sample data without touching this workspace.</Empty>}>
        {(rows) => (
          <Table
            caption="Sandbox workspaces, newest first"
            rowKey={(s) => s.id}
            rows={rows}
            columns={[
              { label: 'Name', render: (s) => s.name },
              {
                label: 'Status',
                render: (s) => (
                  <>
                    <Badge tone={TONE[s.status]}>{s.status}</Badge> {s.error && <span class="hint">{s.error}</span>}
                  </>
                ),
              },
              { label: 'Workspace', render: (s) => <code>{s.workspace_id}</code> },
              { label: 'Test key', render: (s) => <code class="nowrap">{s.api_key.prefix}…</code> },
              { label: 'Sample data', render: (s) => <Seeded s={s.seeded} /> },
              { label: 'Created', render: (s) => <Time iso={s.created_at} /> },
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
    <Dialog open={open} title={made ? 'Sandbox created' : 'Create a sandbox workspace'} onClose={close}>
      {made ? (
        <>
          <Notice>{made.name} is being seeded with sample data; the list shows when it is ready.</Notice>
          <SecretOnce label="Sandbox test key" value={made.test_key} onDone={close}>
            <dl class="facts">
              <dt>Base URL</dt>
              <dd>
                <code class="break-anywhere">{made.base_url}</code> <CopyButton text={made.base_url} label="Copy base URL" />
              </dd>
              <dt>Workspace</dt>
              <dd>
                <code>{made.workspace_id}</code>
              </dd>
              <dt>Scopes</dt>
              <dd>{made.api_key.scopes.join(' ')}</dd>
              <dt>Playground</dt>
              <dd>
                <code class="break-anywhere">{made.playground_url}</code> <CopyButton text={made.playground_url} label="Copy Playground URL" />
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
          <Field label="Name" hint="Optional. Default: “Sandbox of” this workspace’s name.">
            {(id, d) => <input id={id} aria-describedby={d} value={name} maxLength={200} onInput={(e) => setName(e.currentTarget.value)} />}
          </Field>
          <FormActions action={create} label="Create sandbox" busyLabel="Creating…" onCancel={close} />
        </form>
      )}
    </Dialog>
  )
}
