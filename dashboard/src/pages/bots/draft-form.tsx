import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import { Field, FormActions } from '../../ui/components.js'
import { useAction } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import { KnowledgeChoice, useKnowledgeBases, type Bot } from './bots-shared.js'
import { t } from '../../i18n/index.js'

/** The draft configuration: edits change the draft only; customers keep the live version until a publish. */
export function DraftForm({ bot, onSaved }: { bot: Bot; onSaved: (b: Bot) => void }) {
  const { api } = useWorkspace()
  const bases = useKnowledgeBases()
  const [form, setForm] = useState({
    name: bot.name,
    description: bot.description ?? '',
    instructions: bot.instructions,
    language: bot.language,
    greeting: bot.greeting ?? '',
    threshold: String(bot.handoff.confidence_threshold),
    kbs: bot.knowledge_base_ids,
  })
  const set = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value })
  const save = useAction(async () => {
    const b = await ok(
      api.client.PATCH('/bots/{id}', {
        params: { path: { id: bot.id } },
        body: {
          name: form.name.trim(),
          description: form.description.trim() || null,
          instructions: form.instructions,
          language: form.language.trim(),
          greeting: form.greeting.trim() || null,
          knowledge_base_ids: form.kbs,
          handoff: { confidence_threshold: Number(form.threshold) },
        },
      }),
    )
    onSaved(b)
  })
  return (
    <section class="panel" aria-labelledby="draft-title">
      <h2 id="draft-title">{t('bots.draftForm.draftConfiguration')}</h2>
      <form
        onSubmit={(e) => {
          e.preventDefault()
          void save.run()
        }}
      >
        <Field label={t('bots.botList.name')}>{(id) => <input id={id} required maxLength={100} value={form.name} onInput={set('name')} />}</Field>
        <Field label={t('bots.draftForm.description')}>{(id) => <input id={id} value={form.description} onInput={set('description')} />}</Field>
        <Field label={t('bots.botList.instructions')}>{(id) => <textarea id={id} rows={5} value={form.instructions} onInput={set('instructions')} />}</Field>
        <Field label={t('bots.draftForm.language')} hint={t('bots.draftForm.iso6391EG')}>
          {(id, d) => <input id={id} aria-describedby={d} value={form.language} maxLength={10} onInput={set('language')} />}
        </Field>
        <Field label={t('bots.draftForm.greeting')} hint={t('bots.draftForm.shownByChatWidgetsBefore')}>
          {(id, d) => <input id={id} aria-describedby={d} value={form.greeting} onInput={set('greeting')} />}
        </Field>
        <Field label={t('bots.draftForm.handOffConfidenceThreshold')} hint={t('bots.draftForm.0To1AReply')}>
          {(id, d) => <input id={id} aria-describedby={d} type="number" min={0} max={1} step={0.05} value={form.threshold} onInput={set('threshold')} />}
        </Field>
        <KnowledgeChoice bases={bases.data} value={form.kbs} onChange={(kbs) => setForm({ ...form, kbs })} />
        <FormActions action={save} label={t('bots.draftForm.saveDraft')} busyLabel={t('bots.draftForm.saving')} />
      </form>
    </section>
  )
}
