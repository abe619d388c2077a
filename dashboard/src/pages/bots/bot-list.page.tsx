import { useLocation } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Badge, Dialog, Empty, Field, Page, PagedList, ProblemView, Table, Time } from '../../ui/components.js'
import { useAction, usePaged } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { BotStatusBadge, KnowledgeChoice, useKnowledgeBases, type Bot } from './bots-shared.js'
import { t } from '../../i18n/index.js'

function CreateBot({ onClose }: { onClose: () => void }) {
  const { api } = useWorkspace()
  const { route } = useLocation()
  const bases = useKnowledgeBases()
  const [name, setName] = useState('')
  const [instructions, setInstructions] = useState('')
  const [kbs, setKbs] = useState<string[]>([])
  const create = useAction(async () => {
    const bot = await ok(api.client.POST('/bots', { body: { name: name.trim(), instructions: instructions || undefined, knowledge_base_ids: kbs } }))
    route(`/dashboard/bots/${bot.id}`)
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void create.run()
      }}
    >
      <Field label={t('bots.botList.name')}>{(id) => <input id={id} required maxLength={100} value={name} onInput={(e) => setName((e.target as HTMLInputElement).value)} />}</Field>
      <Field label={t('bots.botList.instructions')} hint={t('bots.botList.whatTheBotIsFor')}>
        {(id, d) => <textarea id={id} aria-describedby={d} value={instructions} onInput={(e) => setInstructions((e.target as HTMLTextAreaElement).value)} />}
      </Field>
      <KnowledgeChoice bases={bases.data} value={kbs} onChange={setKbs} />
      {create.error && <ProblemView problem={create.error} />}
      <div class="form-actions">
        <button type="submit" class="primary" disabled={create.pending || !name.trim()}>
          {t('bots.botList.createBot')}
        </button>
        <button type="button" onClick={onClose}>
          {t('bots.botList.cancel')}
        </button>
      </div>
    </form>
  )
}

/** /dashboard/bots: every bot, its status and live version; "New bot" creates a draft. */
export default function BotList() {
  const [creating, setCreating] = useState(false)
  const list = usePaged<Bot>((api, cursor) => ok(api.client.GET('/bots', { params: { query: { limit: 20, cursor } } })))
  return (
    <Page
      title={t('bots.botList.bots')}
      actions={
        <button type="button" class="primary" onClick={() => setCreating(true)}>
          {t('bots.botList.newBot')}
        </button>
      }
    >
      <PagedList list={list} emptyView={<Empty title={t('bots.botList.noBotsYet')}>{t('bots.botList.createABotGiveIt')}</Empty>}>
        {(rows) => (
          <Table
            caption={t('bots.botList.bots')}
            rowKey={(b) => b.id}
            rows={rows}
            columns={[
              { label: t('bots.botList.name'), render: (b) => <a href={`/dashboard/bots/${b.id}`}>{b.name}</a> },
              { label: t('bots.botDetail.status'), render: (b) => <BotStatusBadge bot={b} /> },
              { label: t('bots.botList.versions'), class: 'num', render: (b) => b.version_count },
              {
                label: t('bots.botDetail.draft'),
                render: (b) => (b.has_unpublished_changes ? <Badge tone="warn">{t('bots.botDetail.unpublishedChanges')}</Badge> : <span>{t('bots.botList.upToDate')}</span>),
              },
              { label: t('bots.botList.updated'), render: (b) => <Time iso={b.updated_at} /> },
            ]}
          />
        )}
      </PagedList>
      <Dialog open={creating} title={t('bots.botList.newBot')} onClose={() => setCreating(false)}>
        <CreateBot onClose={() => setCreating(false)} />
      </Dialog>
    </Page>
  )
}
