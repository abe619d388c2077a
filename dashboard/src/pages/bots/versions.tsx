import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Empty, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, type Resource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Bot, BotVersion } from './bots-shared.js'

/** The versions, newest first: the live one marked; a later one can be published, an earlier one rolled back to. */
export function Versions({ bot, versions, onChanged }: { bot: Bot; versions: Resource<BotVersion[]>; onChanged: (b: Bot, what: string) => void }) {
  const { api } = useWorkspace()
  const [open, setOpen] = useState<string>()
  const path = { id: bot.id }
  const publish = useAction(async (v: BotVersion) => {
    const b = await ok(api.client.POST('/bots/{id}/publish', { params: { path }, body: { version_id: v.id } }))
    onChanged(b, `Published: version v${v.number} is live.`)
  })
  const rollback = useAction(async (v: BotVersion) => {
    const b = await ok(api.client.POST('/bots/{id}/versions/{run_id}/rollback', { params: { path: { ...path, run_id: v.id } } }))
    onChanged(b, `Rolled back: version v${v.number} is live again.`)
  })
  const problem = publish.error ?? rollback.error
  return (
    <section class="panel" aria-labelledby="versions-title">
      <h2 id="versions-title">Versions</h2>
      {problem && <ProblemView problem={problem} />}
      <Async
        loading={versions.loading}
        error={versions.error}
        data={versions.data}
        onRetry={versions.reload}
        empty={(d) => d.length === 0}
        emptyView={<Empty title="No versions yet">Publishing freezes the draft into version 1.</Empty>}
      >
        {(list) => {
          const liveNumber = list.find((v) => v.live)?.number
          return (
            <>
              <Table
                caption="Versions"
                rowKey={(v) => v.id}
                rows={list}
                columns={[
                  { label: 'Version', render: (v) => <strong>v{v.number}</strong> },
                  { label: 'State', render: (v) => (v.live ? <Badge tone="good">live</Badge> : liveNumber !== undefined && v.number < liveNumber ? 'earlier' : 'not published') },
                  { label: 'Note', render: (v) => v.note ?? '—' },
                  { label: 'Created', render: (v) => <Time iso={v.created_at} /> },
                  {
                    label: 'Actions',
                    render: (v) => (
                      <span style={{ display: 'inline-flex', gap: '0.4rem', flexWrap: 'wrap' }}>
                        <button type="button" aria-expanded={open === v.id} onClick={() => setOpen(open === v.id ? undefined : v.id)} aria-label={`Configuration of v${v.number}`}>
                          Configuration
                        </button>
                        {!v.live && liveNumber !== undefined && v.number < liveNumber && (
                          <button type="button" class="danger" disabled={rollback.pending} onClick={() => rollback.run(v)} aria-label={`Roll back to v${v.number}`}>
                            Roll back
                          </button>
                        )}
                        {!v.live && (liveNumber === undefined || v.number > liveNumber) && bot.status !== 'archived' && (
                          <button type="button" disabled={publish.pending} onClick={() => publish.run(v)} aria-label={`Publish v${v.number}`}>
                            Publish
                          </button>
                        )}
                      </span>
                    ),
                  },
                ]}
              />
              {open && list.find((v) => v.id === open) && (
                <div style={{ marginTop: '0.75rem' }}>
                  <h3 style={{ fontSize: '1rem' }}>Configuration of v{list.find((v) => v.id === open)?.number}</h3>
                  <pre tabIndex={0} aria-label="Frozen configuration">
                    <code>{JSON.stringify(list.find((v) => v.id === open)?.config, null, 2)}</code>
                  </pre>
                </div>
              )}
            </>
          )
        }}
      </Async>
    </section>
  )
}
