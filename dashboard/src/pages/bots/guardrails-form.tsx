import { useState } from 'preact/hooks'
import { ok } from '../../api/client.js'
import type { components } from '../../api/schema.js'
import { Async, Field, FormActions } from '../../ui/components.js'
import { useAction, useResource } from '../../ui/hooks.js'
import { useWorkspace } from '../../ui/workspace.js'
import type { Bot } from './bots-shared.js'
import { t } from '../../i18n/index.js'

type Guardrails = components['schemas']['BotGuardrailsSettings']

/** One entry a line; blank lines dropped. */
const lines = (text: string) =>
  text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean)
/** Codes separated by commas or blanks, e.g. "de, at". */
const codes = (text: string, upper: boolean) =>
  text
    .split(/[\s,]+/)
    .map((c) => (upper ? c.toUpperCase() : c.toLowerCase()))
    .filter(Boolean)

/** A blocked topic a line: `name: keyword, keyword`. */
const topicsText = (g: Guardrails) => g.blocked_topics.map((tp) => `${tp.name}: ${tp.keywords.join(', ')}`).join('\n')
function topicsOf(text: string): { name: string; keywords: string[] }[] {
  return lines(text).map((line) => {
    const colon = line.indexOf(':')
    const name = (colon > 0 ? line.slice(0, colon) : line).trim()
    const keywords = (colon > 0 ? line.slice(colon + 1) : line)
      .split(',')
      .map((k) => k.trim())
      .filter(Boolean)
    return { name, keywords: keywords.length ? keywords : [name] }
  })
}

function formOf(g: Guardrails) {
  return {
    topics: topicsText(g),
    terms: g.blocked_terms.join('\n'),
    blockedReply: g.blocked_reply,
    injection: g.prompt_injection,
    profanity: g.profanity_filter,
    emails: g.pii_masking.emails,
    phones: g.pii_masking.phone_numbers,
    cards: g.pii_masking.card_numbers,
    regions: g.pii_masking.phone_regions.join(', '),
    allowed: (g.pii_masking.allowed_contacts ?? []).join('\n'),
    maxLength: String(g.max_reply_length),
    languages: g.allowed_languages.join(', '),
    grounded: g.answer_only_when_grounded,
    fallback: g.fallback_message,
  }
}

/**
 * The draft's guardrails (a version freezes them, like the rest of the draft): what the bot refuses, what it
 * masks in its replies — with the business's own public contact details left alone — and when it hands off.
 */
export function GuardrailsForm({ bot, onSaved }: { bot: Bot; onSaved: (b: Bot) => void }) {
  const guardrails = useResource((api) => ok(api.client.GET('/bots/{id}/guardrails', { params: { path: { id: bot.id } } })), [bot.id])
  return (
    <section class="panel" aria-labelledby="guardrails-title">
      <h2 id="guardrails-title">{t('bots.guardrails.title')}</h2>
      <p>{t('bots.guardrails.intro')}</p>
      <Async loading={guardrails.loading} error={guardrails.error} data={guardrails.data} onRetry={guardrails.reload}>
        {(g) => <Editor key={g.bot_id} bot={bot} initial={g} onSaved={(ng, nb) => (guardrails.set(ng), onSaved(nb))} />}
      </Async>
    </section>
  )
}

function Editor({ bot, initial, onSaved }: { bot: Bot; initial: Guardrails; onSaved: (g: Guardrails, b: Bot) => void }) {
  const { api } = useWorkspace()
  const [form, setForm] = useState(() => formOf(initial))
  const text = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).value })
  const check = (k: keyof typeof form) => (e: Event) => setForm({ ...form, [k]: (e.target as HTMLInputElement).checked })
  const save = useAction(async () => {
    const g = await ok(
      api.client.PATCH('/bots/{id}/guardrails', {
        params: { path: { id: bot.id } },
        body: {
          blocked_topics: topicsOf(form.topics),
          blocked_terms: lines(form.terms),
          blocked_reply: form.blockedReply.trim(),
          prompt_injection: form.injection,
          profanity_filter: form.profanity,
          pii_masking: { emails: form.emails, phone_numbers: form.phones, card_numbers: form.cards, phone_regions: codes(form.regions, true), allowed_contacts: lines(form.allowed) },
          max_reply_length: Number(form.maxLength),
          allowed_languages: codes(form.languages, false),
          answer_only_when_grounded: form.grounded,
          fallback_message: form.fallback.trim(),
        },
      }),
    )
    // The bot again: its draft now differs from the live version.
    const b = await ok(api.client.GET('/bots/{id}', { params: { path: { id: bot.id } } }))
    setForm(formOf(g))
    onSaved(g, b)
  })
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault()
        void save.run()
      }}
    >
      <fieldset>
        <legend>{t('bots.guardrails.refused')}</legend>
        <Field label={t('bots.guardrails.blockedTopics')} hint={t('bots.guardrails.blockedTopicsHint')}>
          {(id, d) => <textarea id={id} aria-describedby={d} rows={3} value={form.topics} onInput={text('topics')} />}
        </Field>
        <Field label={t('bots.guardrails.blockedTerms')} hint={t('bots.guardrails.onePerLine')}>
          {(id, d) => <textarea id={id} aria-describedby={d} rows={3} value={form.terms} onInput={text('terms')} />}
        </Field>
        <Field label={t('bots.guardrails.blockedReply')}>{(id) => <textarea id={id} rows={2} required maxLength={500} value={form.blockedReply} onInput={text('blockedReply')} />}</Field>
        <Field label={t('bots.guardrails.promptInjection')}>
          {(id) => (
            <select id={id} value={form.injection} onChange={text('injection')}>
              <option value="block">{t('bots.guardrails.injectionBlock')}</option>
              <option value="flag">{t('bots.guardrails.injectionFlag')}</option>
              <option value="off">{t('bots.guardrails.injectionOff')}</option>
            </select>
          )}
        </Field>
      </fieldset>
      <fieldset>
        <legend>{t('bots.guardrails.masked')}</legend>
        <div class="checks field">
          <label>
            <input type="checkbox" checked={form.emails} onChange={check('emails')} /> {t('bots.guardrails.maskEmails')}
          </label>
          <label>
            <input type="checkbox" checked={form.phones} onChange={check('phones')} /> {t('bots.guardrails.maskPhones')}
          </label>
          <label>
            <input type="checkbox" checked={form.cards} onChange={check('cards')} /> {t('bots.guardrails.maskCards')}
          </label>
          <label>
            <input type="checkbox" checked={form.profanity} onChange={check('profanity')} /> {t('bots.guardrails.maskProfanity')}
          </label>
        </div>
        <Field label={t('bots.guardrails.phoneRegions')} hint={t('bots.guardrails.phoneRegionsHint')}>
          {(id, d) => <input id={id} aria-describedby={d} value={form.regions} onInput={text('regions')} />}
        </Field>
        <Field label={t('bots.guardrails.allowedContacts')} hint={t('bots.guardrails.allowedContactsHint')}>
          {(id, d) => <textarea id={id} aria-describedby={d} rows={3} value={form.allowed} onInput={text('allowed')} />}
        </Field>
      </fieldset>
      <fieldset>
        <legend>{t('bots.guardrails.answering')}</legend>
        <div class="field">
          <label>
            <input type="checkbox" checked={form.grounded} onChange={check('grounded')} /> {t('bots.guardrails.onlyGrounded')}
          </label>
        </div>
        <Field label={t('bots.guardrails.fallbackMessage')}>{(id) => <textarea id={id} rows={2} required maxLength={500} value={form.fallback} onInput={text('fallback')} />}</Field>
        <Field label={t('bots.guardrails.allowedLanguages')} hint={t('bots.guardrails.allowedLanguagesHint')}>
          {(id, d) => <input id={id} aria-describedby={d} value={form.languages} onInput={text('languages')} />}
        </Field>
        <Field label={t('bots.guardrails.maxReplyLength')}>{(id) => <input id={id} type="number" min={50} max={10000} required value={form.maxLength} onInput={text('maxLength')} />}</Field>
      </fieldset>
      <FormActions action={save} label={t('bots.guardrails.save')} busyLabel={t('bots.guardrails.saving')} />
    </form>
  )
}
