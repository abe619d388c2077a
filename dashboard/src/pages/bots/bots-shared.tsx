import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Badge } from '../../ui/components.js'
import { useResource } from '../../ui/hooks.js'
import { statusLabel, t, tx } from '../../i18n/index.js'

export type Bot = components['schemas']['Bot']
export type BotVersion = components['schemas']['BotVersion']
export type BotReply = components['schemas']['BotReply']
export type KnowledgeBase = components['schemas']['KnowledgeBase']

export function BotStatusBadge({ bot }: { bot: Bot }) {
  return <Badge tone={bot.status === 'published' ? 'good' : bot.status === 'archived' ? 'neutral' : 'info'}>{statusLabel(bot.status)}</Badge>
}

/** The workspace's knowledge bases (the first 100): what a bot may answer from. */
export const useKnowledgeBases = () => useResource(async (api) => (await ok(api.client.GET('/knowledge/bases', { params: { query: { limit: 100 } } }))).data)

/** Checkboxes choosing knowledge bases. */
export function KnowledgeChoice({ bases, value, onChange }: { bases: KnowledgeBase[] | undefined; value: string[]; onChange: (ids: string[]) => void }) {
  return (
    <fieldset>
      <legend>{t('bots.botsShared.knowledgeBases')}</legend>
      {!bases ? (
        <p class="hint">{t('bots.botsShared.loadingKnowledgeBases')}</p>
      ) : bases.length === 0 ? (
        <p class="hint">{tx('bots.botsShared.noBasesAddOne', { addOne: <a href="/dashboard/knowledge">{t('bots.botsShared.addOne')}</a> })}</p>
      ) : (
        <div class="checks">
          {bases.map((b) => (
            <label>
              <input type="checkbox" checked={value.includes(b.id)} onChange={(e) => onChange((e.target as HTMLInputElement).checked ? [...value, b.id] : value.filter((x) => x !== b.id))} />{' '}
              {t('bots.botsShared.nameDocumentcountDocuments', { name: b.name, documentCount: b.document_count })}
            </label>
          ))}
        </div>
      )}
    </fieldset>
  )
}
