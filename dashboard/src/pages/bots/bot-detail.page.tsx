import { useRoute } from 'preact-iso'
import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Async, Badge, Field, Notice, Page, ProblemView, Time } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { BotStatusBadge, type Bot, type BotVersion } from './bots-shared.js'
import { DraftForm } from './draft-form.js'
import { GuardrailsForm } from './guardrails-form.js'
import { TestChat } from './test-chat.js'
import { Versions } from './versions.js'
import { statusLabel, t } from '../../i18n/index.js'

/** Publishing the draft: freezes it into a new version when it changed since the latest one, then makes that live. */
function PublishPanel({ bot, versions, onDone }: { bot: Bot; versions: BotVersion[]; onDone: (b: Bot, what: string) => void }) {
  const { api } = useWorkspace()
  const [note, setNote] = useState('')
  const path = { params: { path: { id: bot.id } } }
  const latest = versions[0]
  const needsVersion = !latest || (bot.has_unpublished_changes && (latest.live || draftNewerThan(bot, latest)))
  const publish = useAction(async () => {
    let target = latest
    if (needsVersion || !target) target = await ok(api.client.POST('/bots/{id}/versions', { ...path, body: note.trim() ? { note: note.trim() } : {} }))
    const b = await ok(api.client.POST('/bots/{id}/publish', { ...path, body: { version_id: target.id } }))
    setNote('')
    onDone(b, t('bots.published', { number: target.number }))
  })
  const upToDate = bot.status === 'published' && !bot.has_unpublished_changes && latest?.live
  return (
    <section class="panel" aria-labelledby="publish-title">
      <h2 id="publish-title">{t('bots.botDetail.publish')}</h2>
      {upToDate ? (
        <p>{t('bots.botDetail.theLiveVersionIsThe')}</p>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault()
            void publish.run()
          }}
        >
          <p>{needsVersion ? t('bots.botDetail.publishingFreezesTheDraftInto') : t('bots.botDetail.publishingMakesTheLatestVersion', { number: latest?.number })}</p>
          {needsVersion && (
            <Field label={t('bots.botDetail.versionNote')} hint={t('bots.botDetail.optionalWhatChanged')}>
              {(id, d) => <input id={id} aria-describedby={d} maxLength={200} value={note} onInput={(e) => setNote((e.target as HTMLInputElement).value)} />}
            </Field>
          )}
          <button type="submit" class="primary" disabled={publish.pending || bot.status === 'archived'}>
            {publish.pending ? t('bots.botDetail.publishing') : t('bots.botDetail.publish')}
          </button>
        </form>
      )}
      {publish.error && <ProblemView problem={publish.error} />}
    </section>
  )
}

/** The draft was edited after `v` was frozen (updated_at is later than the version). */
const draftNewerThan = (bot: Bot, v: BotVersion) => Date.parse(bot.updated_at) > Date.parse(v.created_at)

/** /dashboard/bots/{id}: the bot's state, its publishing, its draft, its versions and a test chat. */
export default function BotDetail() {
  const { params } = useRoute()
  const id = params.id
  const bot = useResource((api) => ok(api.client.GET('/bots/{id}', { params: { path: { id } } })), [id])
  const versions = useResource(async (api) => (await ok(api.client.GET('/bots/{id}/versions', { params: { path: { id }, query: { limit: 100 } } }))).data, [id])
  const [notice, setNotice] = useState('')
  const changed = (b: Bot, what: string) => {
    bot.set(b)
    versions.reload()
    setNotice(what)
  }
  return (
    <Page title={bot.data?.name ?? t('bots.botDetail.bot')}>
      <p>
        <a href="/dashboard/bots">{t('bots.botDetail.allBots')}</a>
      </p>
      <Async loading={bot.loading} error={bot.error} data={bot.data} onRetry={bot.reload}>
        {(b) => {
          const live = versions.data?.find((v) => v.live)
          return (
            <>
              {notice && <Notice>{notice}</Notice>}
              <section class="panel" aria-labelledby="state-title">
                <h2 id="state-title">{t('bots.botDetail.state')}</h2>
                <dl class="facts">
                  <dt>{t('bots.botDetail.status')}</dt>
                  <dd>
                    <BotStatusBadge bot={b} />
                  </dd>
                  <dt>{t('bots.botDetail.liveVersion')}</dt>
                  <dd data-testid="live-version">{live ? `v${live.number}` : b.published_version_id ? b.published_version_id : statusLabel('none')}</dd>
                  <dt>{t('bots.botDetail.draft')}</dt>
                  <dd>{b.has_unpublished_changes ? <Badge tone="warn">{t('bots.botDetail.unpublishedChanges')}</Badge> : t('bots.botDetail.sameAsTheLiveVersion')}</dd>
                  <dt>{t('bots.botDetail.published')}</dt>
                  <dd>
                    <Time iso={b.published_at} />
                  </dd>
                  <dt>{t('bots.botDetail.id')}</dt>
                  <dd>
                    <code>{b.id}</code>
                  </dd>
                </dl>
              </section>
              {versions.error && <ProblemView problem={versions.error} onRetry={versions.reload} />}
              {versions.data && <PublishPanel bot={b} versions={versions.data} onDone={changed} />}
              <TestChat bot={b} versions={versions.data ?? []} onVersionCreated={() => (bot.reload(), versions.reload())} />
              <DraftForm bot={b} onSaved={(nb) => changed(nb, t('bots.botDetail.draftSaved'))} />
              <GuardrailsForm bot={b} onSaved={(nb) => changed(nb, t('bots.guardrails.saved'))} />
              <Versions bot={b} versions={versions} onChanged={changed} />
            </>
          )
        }}
      </Async>
    </Page>
  )
}
