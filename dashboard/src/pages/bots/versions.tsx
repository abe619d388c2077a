import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Empty, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, type Resource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Bot, BotVersion } from './bots-shared.js'
import { t } from '../../i18n/index.js'

/** The versions, newest first: the live one marked; a later one can be published, an earlier one rolled back to. */
export function Versions({ bot, versions, onChanged }: { bot: Bot; versions: Resource<BotVersion[]>; onChanged: (b: Bot, what: string) => void }) {
  const { api } = useWorkspace()
  const [open, setOpen] = useState<string>()
  const path = { id: bot.id }
  const publish = useAction(async (v: BotVersion) => {
    const b = await ok(api.client.POST('/bots/{id}/publish', { params: { path }, body: { version_id: v.id } }))
    onChanged(b, t('bots.published', { number: v.number }))
  })
  const rollback = useAction(async (v: BotVersion) => {
    const b = await ok(api.client.POST('/bots/{id}/versions/{run_id}/rollback', { params: { path: { ...path, run_id: v.id } } }))
    onChanged(b, t('bots.versions.rolledBack', { number: v.number }))
  })
  const problem = publish.error ?? rollback.error
  return (
    <section class="panel" aria-labelledby="versions-title">
      <h2 id="versions-title">{t('bots.botList.versions')}</h2>
      {problem && <ProblemView problem={problem} />}
      <Async
        loading={versions.loading}
        error={versions.error}
        data={versions.data}
        onRetry={versions.reload}
        empty={(d) => d.length === 0}
        emptyView={<Empty title={t('bots.versions.noVersionsYet')}>{t('bots.versions.publishingFreezesTheDraftInto')}</Empty>}
      >
        {(list) => {
          const liveNumber = list.find((v) => v.live)?.number
          return (
            <>
              <Table
                caption={t('bots.botList.versions')}
                rowKey={(v) => v.id}
                rows={list}
                columns={[
                  { label: t('bots.versions.version'), render: (v) => <strong>{t('bots.testChat.vNumber', { number: v.number })}</strong> },
                  {
                    label: t('bots.botDetail.state'),
                    render: (v) => (v.live ? <Badge tone="good">{t('bots.versions.live')}</Badge> : liveNumber !== undefined && v.number < liveNumber ? 'earlier' : 'not published'),
                  },
                  { label: t('bots.versions.note'), render: (v) => v.note ?? '—' },
                  { label: t('bots.versions.created'), render: (v) => <Time iso={v.created_at} /> },
                  {
                    label: t('bots.versions.actions'),
                    render: (v) => (
                      <span style={{ display: 'inline-flex', gap: '0.4rem', flexWrap: 'wrap' }}>
                        <button
                          type="button"
                          aria-expanded={open === v.id}
                          onClick={() => setOpen(open === v.id ? undefined : v.id)}
                          aria-label={t('bots.versions.configurationOfVNumber', { number: v.number })}
                        >
                          {t('bots.versions.configuration')}
                        </button>
                        {!v.live && liveNumber !== undefined && v.number < liveNumber && (
                          <button type="button" class="danger" disabled={rollback.pending} onClick={() => rollback.run(v)} aria-label={t('bots.versions.rollBackToVNumber', { number: v.number })}>
                            {t('bots.versions.rollBack')}
                          </button>
                        )}
                        {!v.live && (liveNumber === undefined || v.number > liveNumber) && bot.status !== 'archived' && (
                          <button type="button" disabled={publish.pending} onClick={() => publish.run(v)} aria-label={t('bots.versions.publishVNumber', { number: v.number })}>
                            {t('bots.botDetail.publish')}
                          </button>
                        )}
                      </span>
                    ),
                  },
                ]}
              />
              {open && list.find((v) => v.id === open) && (
                <div style={{ marginTop: '0.75rem' }}>
                  <h3 style={{ fontSize: '1rem' }}>{t('bots.versions.configurationOfVNumber', { number: list.find((v) => v.id === open)?.number })}</h3>
                  <pre tabIndex={0} aria-label={t('bots.versions.frozenConfiguration')}>
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
